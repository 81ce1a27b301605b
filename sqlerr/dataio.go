package sqlerr

// Error numbers of table locks, the global read lock and files read or
// written by statements (LOCK TABLES, FLUSH TABLES WITH READ LOCK, LOAD
// DATA, SELECT ... INTO OUTFILE). SQLSTATE HY000 (StateOf's default) but for
// those init names.
const (
	ErFileExists              uint16 = 1086 // ER_FILE_EXISTS_ERROR
	ErTableNotLockedForWrite  uint16 = 1099 // ER_TABLE_NOT_LOCKED_FOR_WRITE
	ErTableNotLocked          uint16 = 1100 // ER_TABLE_NOT_LOCKED
	ErLockOrActiveTransaction uint16 = 1192 // ER_LOCKED_OR_ACTIVE_TRANSACTION
	ErCantUpdateWithReadlock  uint16 = 1223 // ER_CANT_UPDATE_WITH_READLOCK
	ErCantCreateFile          uint16 = 1004 // ER_CANT_CREATE_FILE
	ErTooManyFieldsInLine     uint16 = 1262 // ER_WARN_TOO_MANY_RECORDS
	ErTooFewFieldsInLine      uint16 = 1261 // ER_WARN_TOO_FEW_RECORDS
	ErWrongFieldTerminators   uint16 = 1083 // ER_WRONG_FIELD_TERMINATORS
	ErNotAllowedCommand       uint16 = 1148 // ER_NOT_ALLOWED_COMMAND (LOCAL INFILE refused)
	ErUnknownCharacterSet     uint16 = 1115 // ER_UNKNOWN_CHARACTER_SET
	ErNullToNotNull           uint16 = 1263 // ER_WARN_NULL_TO_NOTNULL (LOAD DATA's \N for a NOT NULL column)
)

func init() {
	states[ErWrongFieldTerminators] = "42000"
	states[ErUnknownCharacterSet] = "42000"
	states[ErNotAllowedCommand] = "42000"
	states[ErTooFewFieldsInLine] = "01000"
	states[ErTooManyFieldsInLine] = "01000"
	states[ErNullToNotNull] = "22004"
}
