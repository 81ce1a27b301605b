package sqlerr

// Error numbers of query composition: set operations, derived tables,
// common table expressions, window functions and views (issue 12).
const (
	ErWrongUsage                    uint16 = 1221 // ER_WRONG_USAGE
	ErWrongNumberOfColumnsInSelect  uint16 = 1222 // ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT
	ErDerivedMustHaveAlias          uint16 = 1248 // ER_DERIVED_MUST_HAVE_ALIAS
	ErTablenameNotAllowedHere       uint16 = 1250 // ER_TABLENAME_NOT_ALLOWED_HERE
	ErQueryResultIncomplete         uint16 = 1931 // ER_QUERY_RESULT_INCOMPLETE (a warning)
	ErWithColCountMismatch          uint16 = 4002 // ER_WITH_COL_WRONG_LIST
	ErDupQueryName                  uint16 = 4004 // ER_DUP_QUERY_NAME
	ErRecursiveWithoutAnchors       uint16 = 4005 // ER_RECURSIVE_WITHOUT_ANCHORS
	ErNotStandardCompliantRecursive uint16 = 4008 // ER_NOT_STANDARD_COMPLIANT_RECURSIVE
)

func init() {
	for code, state := range map[uint16]string{
		ErWrongUsage:                   "HY000",
		ErWrongNumberOfColumnsInSelect: "21000",
		ErDerivedMustHaveAlias:         "42000",
		ErTablenameNotAllowedHere:      "42000",
	} {
		states[code] = state
	}
}

// Window function errors (MariaDB 10.11's numbers; SQLSTATE HY000).
const (
	ErWrongWindowSpecName          uint16 = 4009
	ErDupWindowName                uint16 = 4010
	ErPartitionListInReferencing   uint16 = 4011
	ErOrderListInReferencing       uint16 = 4012
	ErWindowFrameInReferenced      uint16 = 4013
	ErBadCombinationOfFrameBounds  uint16 = 4014
	ErWrongPlacementOfWindowFunc   uint16 = 4015
	ErNotAllowedWindowFrame        uint16 = 4017
	ErNoOrderListInWindowSpec      uint16 = 4018
	ErRangeFrameNeedsSimpleOrderBy uint16 = 4019
	ErWrongTypeForRowsFrame        uint16 = 4020
	ErWrongTypeForRangeFrame       uint16 = 4021
	ErInvalidNtileArgument         uint16 = 4024
	ErWindowFuncInGroupFunc        uint16 = 4074
)

// View errors.
const (
	ErNonUpdatableColumn uint16 = 1348 // ER_NONUPDATEABLE_COLUMN
	ErViewWrongList      uint16 = 1353 // ER_VIEW_WRONG_LIST
	ErNotView            uint16 = 1347 // ER_WRONG_OBJECT
	ErViewRecursive      uint16 = 1462 // ER_VIEW_RECURSIVE
	ErViewCheckFailed    uint16 = 1369 // ER_VIEW_CHECK_FAILED
	ErNonInsertableTable uint16 = 1471 // ER_NON_INSERTABLE_TABLE
	ErIsView             uint16 = 1965 // ER_IT_IS_A_VIEW
	ErUnknownView        uint16 = 4092 // ER_UNKNOWN_VIEW
)

func init() {
	states[ErViewCheckFailed] = "44000"
	states[ErIsView] = "42S02"
	states[ErUnknownView] = "42S02"
}

// ErViewNonUpdCheck is ER_VIEW_NONUPD_CHECK: WITH CHECK OPTION on a view
// that cannot be written through.
const ErViewNonUpdCheck uint16 = 1368

// ErViewInvalid is ER_VIEW_INVALID: a view whose tables or columns are gone.
const ErViewInvalid uint16 = 1356

// ErViewSelectTmptable is ER_VIEW_SELECT_TMPTABLE: a view may not read a
// session's temporary table.
const ErViewSelectTmptable uint16 = 1352
