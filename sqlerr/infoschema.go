package sqlerr

// ErDBAccessDenied is MySQL's 1044: a write to a read-only schema
// (information_schema), as MariaDB refuses it.
const ErDBAccessDenied uint16 = 1044

// ErIllegalParamTypes is MariaDB's 4078: a row constructor compared with
// a scalar.
const ErIllegalParamTypes uint16 = 4078

func init() { states[ErDBAccessDenied] = "42000" }
