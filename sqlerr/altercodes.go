package sqlerr

// Schema-change errors (ALTER TABLE, CREATE/DROP INDEX, RENAME TABLE),
// kept apart from the main table so it can grow without touching it.
const (
	ErCantDropFieldOrKey      uint16 = 1091 // DROP of a column or key that does not exist
	ErCantRemoveAllFields     uint16 = 1090 // ALTER TABLE dropping every column
	ErIllegalHaCreateOption   uint16 = 1031 // DISABLE/ENABLE KEYS on InnoDB (a Note)
	ErWrongNameForIndex       uint16 = 1280 // an index named PRIMARY
	ErKeyDoesNotExist         uint16 = 1176 // RENAME INDEX of a missing key
	ErAlterOperationNotSupp   uint16 = 1846 // ALGORITHM= / LOCK= the change cannot honour
	ErUnknownAlterAlgorithm   uint16 = 1800
	ErUnknownAlterLock        uint16 = 1801
	ErDuplicatedIndex         uint16 = 1831 // a second index on the same columns (a Note)
	ErTableDefChanged         uint16 = 1412 // a read view older than the table's definition
	ErErrorOnRename           uint16 = 1025
	ErUnknownCharacterSetName uint16 = 1115
	ErWrongSubKey             uint16 = 1089 // a key prefix on a non-string or past the column
)

func init() {
	states[ErCantDropFieldOrKey] = "42000"
	states[ErCantRemoveAllFields] = "42000"
	states[ErWrongNameForIndex] = "42000"
	states[ErKeyDoesNotExist] = "42000"
	states[ErAlterOperationNotSupp] = "0A000"
	states[ErUnknownCharacterSetName] = "42000"
	states[ErWrongSubKey] = "HY000"
}
