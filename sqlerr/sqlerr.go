package sqlerr

import (
	"errors"
	"fmt"
)

// Error is a MySQL-style error: number, SQLSTATE and message.
type Error struct {
	Code    uint16
	State   string
	Message string
	// Where is, for an error a stored procedure raised itself (SIGNAL,
	// error() in Lua, throw in JavaScript), where it was raised: "p line
	// 3" or "p (dir/p.lua line 4)". It is not part of Message, which
	// stays exactly as raised; SHOW WARNINGS lists it as a note after the
	// error ("Raised at p line 3").
	Where string
	cause error
}

func (e *Error) Error() string {
	return fmt.Sprintf("ERROR %d (%s): %s", e.Code, e.State, e.Message)
}

// Unwrap returns the inner error the Error was made from, if any.
func (e *Error) Unwrap() error { return e.cause }

// New builds an Error whose SQLSTATE is the one MySQL uses for code.
func New(code uint16, format string, args ...any) *Error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Code: code, State: StateOf(code), Message: msg}
}

// Wrap is New with cause kept for errors.Is.
func Wrap(cause error, code uint16, format string, args ...any) *Error {
	e := New(code, format, args...)
	e.cause = cause
	return e
}

// As returns err as an *Error if it is or wraps one.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// MySQL error numbers plrun returns.
const (
	ErUnknown                 uint16 = 1105
	ErDBCreateExists          uint16 = 1007
	ErDBDropExists            uint16 = 1008
	ErNoDB                    uint16 = 1046
	ErBadNull                 uint16 = 1048
	ErBadDB                   uint16 = 1049
	ErTableExists             uint16 = 1050
	ErBadTable                uint16 = 1051
	ErBadField                uint16 = 1054
	ErDupFieldName            uint16 = 1060
	ErDupKeyName              uint16 = 1061
	ErDupEntry                uint16 = 1062
	ErParse                   uint16 = 1064
	ErEmptyQuery              uint16 = 1065
	ErNonUniqTable            uint16 = 1066
	ErInvalidDefault          uint16 = 1067
	ErMultiplePriKey          uint16 = 1068
	ErTooLongKey              uint16 = 1071
	ErKeyColumnDoesNotExit    uint16 = 1072
	ErWrongAutoKey            uint16 = 1075
	ErWrongFieldSpec          uint16 = 1063
	ErNoSuchThread            uint16 = 1094
	ErWrongValueCount         uint16 = 1136
	ErAccessDenied            uint16 = 1045
	ErNoSuchTable             uint16 = 1146
	ErSyntax                  uint16 = 1149
	ErTooManyConnections      uint16 = 1040
	ErLockWaitTimeout         uint16 = 1205
	ErLockDeadlock            uint16 = 1213
	ErUnknownSystemVar        uint16 = 1193
	ErWrongValueForVar        uint16 = 1231
	ErWrongTypeForVar         uint16 = 1232
	ErGlobalVariable          uint16 = 1229
	ErLocalVariable           uint16 = 1228
	ErQueryInterrupted        uint16 = 1317
	ErSPAlreadyExists         uint16 = 1304
	ErSPDoesNotExist          uint16 = 1305
	ErSPWrongNoOfArgs         uint16 = 1318
	ErSPNotVarArg             uint16 = 1414
	ErSPRecursionLimit        uint16 = 1456
	ErSPBadSelect             uint16 = 1312
	ErSPDoesNotExistSave      uint16 = 1305
	ErSavepointNotExist       uint16 = 1305
	ErSignalException         uint16 = 1644
	ErSPBadStatement          uint16 = 1314 // "%s is not allowed in stored procedures"
	ErSPNoRetset              uint16 = 1415 // a result set from a stored function
	ErCommitNotAllowedInSF    uint16 = 1422 // COMMIT and the like inside a stored function
	ErSPNoRecursion           uint16 = 1424 // a stored function that calls itself
	ErSPUndeclaredVar         uint16 = 1327
	ErNativeFctNameCollision  uint16 = 1585 // a stored function named like a built-in (a Note)
	ErDataTooLong             uint16 = 1406
	ErWarnDataOutOfRange      uint16 = 1264
	ErWarnDataTruncated       uint16 = 1265
	ErTruncatedWrongValue     uint16 = 1292
	ErDataOutOfRange          uint16 = 1690
	ErDataOverflow            uint16 = 1916 // a number past BIGINT read by a bitwise operator (a warning)
	ErDivisionByZero          uint16 = 1365
	ErDatetimeOverflow        uint16 = 1441 // date arithmetic past 9999 (a warning)
	ErWrongValueForType       uint16 = 1411 // STR_TO_DATE text that does not match (a warning)
	ErCutValueGroupConcat     uint16 = 1260 // GROUP_CONCAT past group_concat_max_len (a warning)
	ErRegexp                  uint16 = 1139 // a pattern the regexp library refuses
	ErWrongValue              uint16 = 1525 // DATE/TIME/TIMESTAMP literal text that is none
	ErWrongArguments          uint16 = 1210
	ErWrongValueCountOnRow    uint16 = 1136
	ErNotSupportedYet         uint16 = 1235
	ErUnknownStmtHandler      uint16 = 1243
	ErWrongArgCount           uint16 = 1582
	ErInvalidUseOfGroup       uint16 = 1111
	ErWrongGroupField         uint16 = 1056
	ErFieldSpecifiedTwice     uint16 = 1110
	ErMixOfGroupFunc          uint16 = 1140
	ErTruncatedWrongField     uint16 = 1366
	ErUnknownTable            uint16 = 1109
	ErNonUpdatableTable       uint16 = 1288
	ErOutcomeUnknown          uint16 = 1180 // ER_ERROR_DURING_COMMIT: the log failed; the outcome is unknown
	ErQueryTimeout            uint16 = 3024 // ER_QUERY_TIMEOUT (max_execution_time)
	ErServerShutdown          uint16 = 1053
	ErCantDoThisInTxn         uint16 = 1179
	ErDBError                 uint16 = 1030
	ErTooBigPrecision         uint16 = 1426
	ErTooBigScale             uint16 = 1425
	ErMBiggerThanD            uint16 = 1427
	ErReadOnlyVariable        uint16 = 1238
	ErNoTablesUsed            uint16 = 1096
	ErNoDefaultForField       uint16 = 1364
	ErFileNotFound            uint16 = 1017
	ErNonUniq                 uint16 = 1052
	ErTooManyTables           uint16 = 1116
	ErOperandColumns          uint16 = 1241
	ErSubqueryNo1Row          uint16 = 1242
	ErOptionPreventsStatement uint16 = 1290
	// ErInventoryHintMismatch is PolarDB's: a TARGET_AFFECT_ROW(n) hint
	// not met (SQLSTATE HY000, StateOf's default).
	ErInventoryHintMismatch uint16 = 7532
)

// Error numbers of statement resource limits (issue 17).
const (
	ErCapacityExceeded  uint16 = 3170 // ER_CAPACITY_EXCEEDED (plrun_max_statement_memory)
	ErNetPacketTooLarge uint16 = 1153 // ER_NET_PACKET_TOO_LARGE (max_allowed_packet)
	// ErWarnAllowedPacketOverflowed: a function's result would pass
	// max_allowed_packet, so it is NULL (a warning, as MySQL).
	ErWarnAllowedPacketOverflowed uint16 = 1301
	// An AUTO_INCREMENT value past its column's range (MariaDB's
	// HA_ERR_AUTOINC_ERANGE), and a counter that has no next value.
	ErAutoincRange      uint16 = 167
	ErAutoincReadFailed uint16 = 1467
)

var states = map[uint16]string{
	ErDBCreateExists:           "HY000",
	ErDBDropExists:             "HY000",
	ErNoDB:                     "3D000",
	ErBadNull:                  "23000",
	ErBadDB:                    "42000",
	ErTableExists:              "42S01",
	ErBadTable:                 "42S02",
	ErBadField:                 "42S22",
	ErDupFieldName:             "42S21",
	ErDupKeyName:               "42000",
	ErDupEntry:                 "23000",
	ErParse:                    "42000",
	ErEmptyQuery:               "42000",
	ErNonUniqTable:             "42000",
	ErNonUniq:                  "23000",
	ErTooManyTables:            "HY000",
	ErOperandColumns:           "21000",
	ErSubqueryNo1Row:           "21000",
	ErInvalidDefault:           "42000",
	ErMultiplePriKey:           "42000",
	ErTooLongKey:               "42000",
	ErKeyColumnDoesNotExit:     "42000",
	ErWrongAutoKey:             "42000",
	ErWrongFieldSpec:           "42000",
	ErWrongValueCount:          "21S01",
	ErAccessDenied:             "28000",
	ErNoSuchTable:              "42S02",
	ErSyntax:                   "42000",
	ErTooManyConnections:       "08004",
	ErLockWaitTimeout:          "HY000",
	ErLockDeadlock:             "40001",
	ErUnknownSystemVar:         "HY000",
	ErWrongValueForVar:         "42000",
	ErCollationCharsetMismatch: "42000",
	ErWrongTypeForVar:          "42000",
	ErGlobalVariable:           "HY000",
	ErLocalVariable:            "HY000",
	ErQueryInterrupted:         "70100",
	ErSPAlreadyExists:          "42000",
	ErSPDoesNotExist:           "42000",
	ErSPWrongNoOfArgs:          "42000",
	ErSPNotVarArg:              "42000",
	ErSPBadSelect:              "0A000",
	ErSignalException:          "45000",
	ErSPBadStatement:           "0A000",
	ErSPNoRetset:               "0A000",
	ErSPUndeclaredVar:          "42000",
	ErDataTooLong:              "22001",
	ErWarnDataOutOfRange:       "22003",
	ErNetPacketTooLarge:        "08S01",
	ErAutoincRange:             "22003",
	ErWarnDataTruncated:        "01000",
	ErTruncatedWrongValue:      "22007",
	ErDataOutOfRange:           "22003",
	ErDataOverflow:             "22003",
	ErDivisionByZero:           "22012",
	ErWrongArguments:           "HY000",
	ErNotSupportedYet:          "42000",
	ErUnknownStmtHandler:       "HY000",
	ErWrongArgCount:            "42000",
	ErInvalidUseOfGroup:        "HY000",
	ErWrongGroupField:          "42000",
	ErFieldSpecifiedTwice:      "42000",
	ErMixOfGroupFunc:           "42000",
	ErTruncatedWrongField:      "22007",
	ErUnknownTable:             "42S02",
	ErNonUpdatableTable:        "HY000",
	ErOutcomeUnknown:           "HY000",
	ErQueryTimeout:             "HY000",
	ErServerShutdown:           "08S01",
	ErCantDoThisInTxn:          "25000",
	ErDBError:                  "HY000",
	ErTooBigPrecision:          "42000",
	ErRegexp:                   "42000",
	ErTooBigScale:              "42000",
	ErMBiggerThanD:             "42000",
	ErReadOnlyVariable:         "HY000",
	ErNoSuchThread:             "HY000",
	ErUnknown:                  "HY000",
}

// StateOf returns the SQLSTATE MySQL sends with code ("HY000" if unknown).
func StateOf(code uint16) string {
	if s, ok := states[code]; ok {
		return s
	}
	return "HY000"
}
