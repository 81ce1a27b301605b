package expr

import (
	"context"
	"fmt"
	"github.com/plrun/plrun/sql/privilege"
	"strconv"
	"time"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Host is what an expression asks of the session it runs in beyond Env:
// its system variables and who is connected.
type Host interface {
	// SysVar is a system variable's value in the session (or global) scope.
	SysVar(d *sysvar.Def, global bool) string
	// ID is the connection id (CONNECTION_ID()).
	ID() uint64
	// Client is the login user and the client's host (USER()).
	Client() (user, host string)
	// Account is the account the session runs as (CURRENT_USER()), nil
	// when it is not checked (embedded, REPL).
	Account() privilege.Grants
	FunctionHost
}

// Env is a session's state as expressions and statements read and write
// it: the current database, user variables, what LAST_INSERT_ID(),
// ROW_COUNT() and FOUND_ROWS() report, sql_mode, and the running
// statement's warnings and write flags. A session embeds one.
type Env struct {
	owner Host

	DB       string
	UserVars map[string]types.Value
	// StmtStart is when the running statement began: NOW() and the other
	// clock functions but SYSDATE() read it, so every row sees one time.
	StmtStart    time.Time
	LastInsertID uint64
	RowCount     int64
	FoundRows    int64

	// sql_mode as flags, for the text it was parsed from (SQLMode)
	mode       sysvar.SQLMode
	modeText   string
	modeParsed bool
	// time_zone as a zone, for the text it was parsed from (Location)
	zone zoneCache

	// StmtNotes are warnings raised while the statement ran (division by
	// zero, non-strict conversions); they join its Result's notes.
	StmtNotes    []sqlerr.Note
	StmtWarnings int
	// MultiRowWrite: the statement is an UPDATE or a multi-row INSERT,
	// where non-strict mode stores a NULL for a NOT NULL column as its
	// implicit default (nullAsDefault).
	MultiRowWrite bool
	// IgnoreErrors: INSERT IGNORE / UPDATE IGNORE, whose conversion errors
	// are warnings whatever the mode (strictWrites).
	IgnoreErrors bool

	// StmtCtx is the running statement's context (SLEEP() waits on it).
	StmtCtx context.Context

	// RowsExamined counts the table rows the running statement read, and
	// FullScan says one was a whole table's scan (examined.go): the slow
	// query log's Rows_examined and log_queries_not_using_indexes.
	RowsExamined uint64
	FullScan     bool
}

// ForgetMode drops the parsed sql_mode (COM_RESET_CONNECTION): the next
// SQLMode reads the variable again.
func (s *Env) ForgetMode() { s.mode, s.modeText, s.modeParsed = 0, "", false }

// NewEnv is the state of a new session of owner on database db.
func NewEnv(owner Host, db string) Env {
	return Env{owner: owner, DB: db, UserVars: map[string]types.Value{}}
}

// SQLMode is the session's sql_mode now. The text is parsed once per
// change (it was validated when set).
func (s *Env) SQLMode() sysvar.SQLMode {
	text := s.owner.SysVar(sysvar.Defs["sql_mode"], false)
	if text != s.modeText || !s.modeParsed {
		s.mode, _ = sysvar.ParseSQLMode(text)
		s.modeText, s.modeParsed = text, true
	}
	return s.mode
}

// Warn records a warning of the running statement; exec adds it to the
// statement's Result (SHOW WARNINGS, the OK packet's warning count).
func (s *Env) Warn(code uint16, format string, args ...any) {
	s.StmtWarnings++
	if len(s.StmtNotes) < MaxNotes {
		s.StmtNotes = append(s.StmtNotes, sqlerr.Note{Level: "Warning", Code: code, Message: fmt.Sprintf(format, args...)})
	}
}

// MaxAllowedPacket is the session's max_allowed_packet: the longest
// statement it accepts and the longest string a function may return.
func (s *Env) MaxAllowedPacket() int64 {
	n, _ := strconv.ParseInt(s.owner.SysVar(sysvar.Defs["max_allowed_packet"], false), 10, 64)
	return n
}

// GroupConcatMaxLen is group_concat_max_len: the bytes a GROUP_CONCAT
// result keeps (warning 1260 past it).
func (s *Env) GroupConcatMaxLen() int64 {
	n, _ := strconv.ParseInt(s.owner.SysVar(sysvar.Defs["group_concat_max_len"], false), 10, 64)
	return n
}

// Host is the session the Env is the state of (who is connected, its
// system variables).
func (s *Env) Host() Host { return s.owner }
