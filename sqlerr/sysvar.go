package sqlerr

// ErVariableIsNotStruct is MySQL's 1272 (HY000): `@@a.b` where b is a
// plain variable (@@persist.x outside SET, @@session.persist.x).
const ErVariableIsNotStruct uint16 = 1272
