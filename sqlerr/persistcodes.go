package sqlerr

// ErVarNotPersisted is MySQL's 3615 for RESET PERSIST of a setting that
// was never persisted (SQLSTATE HY000, StateOf's default).
const ErVarNotPersisted uint16 = 3615
