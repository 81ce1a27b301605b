package sysvar

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// sqlMode is a session's sql_mode as flags, in MariaDB's bit order (the
// order @@sql_mode lists them in).
type SQLMode uint64

// defaultSQLMode is MariaDB 10.11's default.
const defaultSQLMode = "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"

// sqlModeFlag is one sql_mode name. implemented says plrun does what the
// flag asks (or it cannot matter in plrun, as said beside it); setting a
// flag that is not is error 1231, never a silent no-op.
type sqlModeFlag struct {
	name        string
	implemented bool
}

// sqlModeFlags are MariaDB's, in bit order.
var sqlModeFlags = []sqlModeFlag{
	{"REAL_AS_FLOAT", true},   // the parser reads REAL as FLOAT
	{"PIPES_AS_CONCAT", true}, // the parser reads || as CONCAT
	{"ANSI_QUOTES", true},     // the parser reads "x" as an identifier
	{"IGNORE_SPACE", true},    // the parser allows a space before a function's (
	{"IGNORE_BAD_TABLE_OPTIONS", false},
	{"ONLY_FULL_GROUP_BY", true}, // error 1055 (sql/exec/select.go)
	{"NO_UNSIGNED_SUBTRACTION", false},
	{"NO_DIR_IN_CREATE", false},
	{"POSTGRESQL", false},
	{"ORACLE", false},
	{"MSSQL", false},
	{"DB2", false},
	{"MAXDB", false},
	{"NO_KEY_OPTIONS", false},
	{"NO_TABLE_OPTIONS", false},
	{"NO_FIELD_OPTIONS", false},
	{"MYSQL323", false},
	{"MYSQL40", false},
	{"ANSI", true},                  // the flag ANSI sets beside its parts; no effect of its own in plrun
	{"NO_AUTO_VALUE_ON_ZERO", true}, // fillRow: 0 is stored, only NULL generates
	{"NO_BACKSLASH_ESCAPES", false},
	{"STRICT_TRANS_TABLES", true},
	{"STRICT_ALL_TABLES", true}, // every plrun table is transactional: the same as STRICT_TRANS_TABLES
	// plrun's DATE and DATETIME cannot hold a zero date, nor a zero month
	// or day: they are always refused (error 1292), as these flags ask in
	// strict mode. (Without strict mode MariaDB stores the zero date with
	// a warning; plrun still refuses it.)
	{"NO_ZERO_IN_DATE", true},
	{"NO_ZERO_DATE", true},
	{"ALLOW_INVALID_DATES", false},
	{"ERROR_FOR_DIVISION_BY_ZERO", true},
	{"TRADITIONAL", true},            // the flag TRADITIONAL sets beside its parts
	{"NO_AUTO_CREATE_USER", true},    // without it GRANT creates a missing account (sql/acl)
	{"HIGH_NOT_PRECEDENCE", false},   //
	{"NO_ENGINE_SUBSTITUTION", true}, // substituteEngine
	{"PAD_CHAR_TO_FULL_LENGTH", false},
	{"EMPTY_STRING_IS_NULL", false},
	{"SIMULTANEOUS_ASSIGNMENT", false},
	{"TIME_ROUND_FRACTIONAL", false},
}

func modeBit(name string) SQLMode {
	for i, f := range sqlModeFlags {
		if f.name == name {
			return 1 << i
		}
	}
	panic("sql_mode flag " + name + " is not in sqlModeFlags")
}

var (
	modeRealAsFloat       = modeBit("REAL_AS_FLOAT")
	modePipesAsConcat     = modeBit("PIPES_AS_CONCAT")
	modeANSIQuotes        = modeBit("ANSI_QUOTES")
	modeIgnoreSpace       = modeBit("IGNORE_SPACE")
	ModeOnlyFullGroup     = modeBit("ONLY_FULL_GROUP_BY")
	modeStrictTrans       = modeBit("STRICT_TRANS_TABLES")
	modeStrictAll         = modeBit("STRICT_ALL_TABLES")
	ModeErrorDivByZero    = modeBit("ERROR_FOR_DIVISION_BY_ZERO")
	ModeNoAutoValueOnZero = modeBit("NO_AUTO_VALUE_ON_ZERO")
	ModeNoEngineSubst     = modeBit("NO_ENGINE_SUBSTITUTION")
	ModeNoAutoCreateUser  = modeBit("NO_AUTO_CREATE_USER")
)

// sqlModeCombinations are the names that stand for several flags (and set
// their own flag too), as MariaDB expands them.
var sqlModeCombinations = map[string][]string{
	"ANSI":        {"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "ANSI"},
	"TRADITIONAL": {"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE", "ERROR_FOR_DIVISION_BY_ZERO", "TRADITIONAL", "NO_AUTO_CREATE_USER", "NO_ENGINE_SUBSTITUTION"},
}

// errBadSQLMode names the first element of a sql_mode value plrun does not
// take: a misspelt name, or a flag it does not implement.
type errBadSQLMode struct{ elem string }

func (e errBadSQLMode) Error() string { return "sql_mode flag " + e.elem }

// ParseSQLMode reads a sql_mode value: a comma list of names, case
// insensitive, or 0 (no flags).
func ParseSQLMode(text string) (SQLMode, error) {
	if text == "" || text == "0" {
		return 0, nil
	}
	var m SQLMode
	for _, elem := range strings.Split(text, ",") {
		if elem == "" {
			continue
		}
		name := strings.ToUpper(elem)
		parts, ok := sqlModeCombinations[name]
		if !ok {
			parts = []string{name}
		}
		for _, p := range parts {
			i := flagIndex(p)
			if i < 0 || !sqlModeFlags[i].implemented {
				return 0, errBadSQLMode{elem}
			}
			m |= 1 << i
		}
	}
	return m, nil
}

func flagIndex(name string) int {
	for i, f := range sqlModeFlags {
		if f.name == name {
			return i
		}
	}
	return -1
}

// String is the canonical text @@sql_mode shows.
func (m SQLMode) String() string {
	var names []string
	for i, f := range sqlModeFlags {
		if m&(1<<i) != 0 {
			names = append(names, f.name)
		}
	}
	return strings.Join(names, ",")
}

// Strict reports whether conversion errors in INSERT/UPDATE are errors
// (STRICT_TRANS_TABLES or STRICT_ALL_TABLES: every plrun table is
// transactional, so the two mean the same).
func (m SQLMode) Strict() bool { return m&(modeStrictTrans|modeStrictAll) != 0 }

// ParserMode is the part of the mode that changes how text parses; the
// plan cache is keyed by it beside the text.
func (m SQLMode) ParserMode() mysql.SQLMode {
	var p mysql.SQLMode
	if m&modeRealAsFloat != 0 {
		p |= mysql.ModeRealAsFloat
	}
	if m&modePipesAsConcat != 0 {
		p |= mysql.ModePipesAsConcat
	}
	if m&modeANSIQuotes != 0 {
		p |= mysql.ModeANSIQuotes
	}
	if m&modeIgnoreSpace != 0 {
		p |= mysql.ModeIgnoreSpace
	}
	return p
}
