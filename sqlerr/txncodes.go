package sqlerr

// Transaction-characteristics and sql_mode errors (issue 10), kept apart
// from the main table so it can grow without touching it.
const (
	ErCantChangeTxCharacteristics uint16 = 1568 // SET TRANSACTION inside a transaction
	ErReadOnlyTransaction         uint16 = 1792 // a write in a READ ONLY transaction
	ErWrongFieldWithGroup         uint16 = 1055 // ONLY_FULL_GROUP_BY
	WarnDataTruncated             uint16 = 1265 // non-strict: a value cut to fit its column
	ErUnknownStorageEngine        uint16 = 1286 // NO_ENGINE_SUBSTITUTION: ENGINE= other than InnoDB
	WarnUsingOtherHandler         uint16 = 1266 // without it: InnoDB instead
)

func init() {
	states[ErCantChangeTxCharacteristics] = "25001"
	states[ErReadOnlyTransaction] = "25006"
	states[ErWrongFieldWithGroup] = "42000"
	states[WarnDataTruncated] = "01000"
	states[ErUnknownStorageEngine] = "42000"
}
