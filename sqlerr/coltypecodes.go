package sqlerr

// Column type declaration errors (BINARY/VARBINARY lengths, ENUM and SET
// members), kept apart from the main table so it can grow without
// touching it.
const (
	ErTooBigFieldLength     uint16 = 1074 // CHAR/BINARY/VARBINARY longer than the type holds
	ErTooBigSet             uint16 = 1097 // a SET of more than 64 members
	ErDuplicatedValueInType uint16 = 1291 // an ENUM or SET member given twice (a Note in ENUM)
	ErTooBigDisplaywidth    uint16 = 1439 // BIT(n) past 64
	ErIllegalValueForType   uint16 = 1367 // a SET member with a comma
)

func init() {
	states[ErTooBigFieldLength] = "42000"
	states[ErTooBigDisplaywidth] = "42000"
	states[ErIllegalValueForType] = "22007"
}
