package sqlerr

// Errors of date and time columns (SQLSTATE HY000, StateOf's default).
const (
	// ErInvalidOnUpdate: DEFAULT and ON UPDATE CURRENT_TIMESTAMP with
	// different fractional digits, or ON UPDATE on a column that is no
	// DATETIME or TIMESTAMP.
	ErInvalidOnUpdate uint16 = 1294
)
