package psm

import (
	"fmt"

	"github.com/plrun/plrun/sqlerr"
)

// MySQL's stored-program error codes, with the SQLSTATE MariaDB gives
// each (sqlerr's table does not know them all).
const (
	erSPNoRecursiveCreate     = 1303
	erSPLilabelMismatch       = 1308 // LEAVE/ITERATE with no matching label
	erSPLabelRedefine         = 1309
	erSPLabelMismatch         = 1310 // end label without a matching begin label
	erSPBadselect             = 1312
	erSPUndeclaredVar         = 1327
	erSPWrongNoOfFetchArgs    = 1328
	erSPFetchNoData           = 1329
	erSPDupVar                = 1331
	erSPDupCond               = 1332
	erSPDupCurs               = 1333
	erSPCursorMismatch        = 1324
	erSPCursorAlreadyOpen     = 1325
	erSPCursorNotOpen         = 1326
	erSPCondMismatch          = 1319
	erSPVarcondAfterCurshndlr = 1337
	erSPCursorAfterHandler    = 1338
	erSPCaseNotFound          = 1339
	erSPDupHandler            = 1413
	erSPNoReturn              = 1320
	erSPNoReturnEnd           = 1321
	erTooManyRows             = 1172
	erSignalException         = 1644
	erSignalWarn              = 1642
	erSignalNotFound          = 1643
	erSignalBadItem           = 1645
	erResignalWithoutHandler  = 1645
	erUnknownSystemVariable   = 1193
	erWrongValueForVar        = 1231
	erDiagCondNumber          = 1758 // "Invalid condition number"
)

func newErr(code uint16, state, format string, args ...any) *sqlerr.Error {
	return &sqlerr.Error{Code: code, State: state, Message: fmt.Sprintf(format, args...)}
}

func noData() *sqlerr.Error {
	return newErr(erSPFetchNoData, "02000", "No data - zero rows fetched, selected, or processed")
}

func notSupported(what string) *sqlerr.Error {
	return newErr(sqlerr.ErNotSupportedYet, "42000", "This version of plrun doesn't yet support %s", what)
}

const erDiagStackedNoHandler = 1749
