package sqlerr

// Trigger errors (MariaDB 10.11's numbers; SQLSTATE HY000 unless set).
const (
	ErTrgAlreadyExists          uint16 = 1359 // ER_TRG_ALREADY_EXISTS
	ErTrgDoesNotExist           uint16 = 1360 // ER_TRG_DOES_NOT_EXIST
	ErTrgOnViewOrTempTable      uint16 = 1361 // ER_TRG_ON_VIEW_OR_TEMP_TABLE
	ErTrgCantChangeRow          uint16 = 1362 // ER_TRG_CANT_CHANGE_ROW
	ErTrgNoSuchRowInTrg         uint16 = 1363 // ER_TRG_NO_SUCH_ROW_IN_TRG
	ErTrgInWrongSchema          uint16 = 1435 // ER_TRG_IN_WRONG_SCHEMA
	ErCantUpdateUsedTableInSF   uint16 = 1442 // ER_CANT_UPDATE_USED_TABLE_IN_SF_OR_TRG
	ErReferencedTrgDoesNotExist uint16 = 4031 // ER_REFERENCED_TRG_DOES_NOT_EXIST
)
