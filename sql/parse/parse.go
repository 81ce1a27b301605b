package parse

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/test_driver" // value expressions for the parser
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// stmtKind tags statements plrun pre-scans itself.
type stmtKind int

const (
	KindAST stmtKind = iota
	KindCreateProc
	KindDropProc
	KindAlterSystem
	KindCheckpoint
	KindShowProcStatus
	KindShowCreateProc
	KindLoadProc
	KindDoBlock
	KindSetPersist   // SET PERSIST / SET PERSIST_ONLY (engine/persist.go)
	KindResetPersist // RESET PERSIST [[IF EXISTS] name]
	KindCreateFunc
	KindDropFunc
	KindShowFuncStatus
	KindShowCreateFunc
	KindCreateTrigger
	KindDropTrigger
	KindShowTriggers      // SHOW TRIGGERS [FROM db] [LIKE 'p']: Name is the database, Like the pattern
	KindShowCreateTrigger // Name is [db.]name
	KindLockTables        // LOCK TABLES (locktables.go): Locks
	KindShowEngine        // SHOW ENGINE name {STATUS|MUTEX|LOGS}: Name is the engine, Like what is shown
)

// hints are the PolarDB hot-row hints of an UPDATE.
type hints struct {
	CommitOnSuccess bool
	RollbackOnFail  bool
	TargetRows      int64 // -1 = none
}

// Stmt is a statement's parse result, shared by every session.
type Stmt struct {
	Kind   stmtKind
	Node   ast.StmtNode
	Text   string
	Params int
	Hints  hints

	// pre-scanned statements
	Name     string
	IfExists bool
	// SET PERSIST_ONLY: keep the value for the next start, change nothing now
	PersistOnly bool
	Assigns     [][2]string // ALTER SYSTEM SET name = value
	Like        string
	Body        string     // DO LANGUAGE name $$ body $$ (name in name)
	Begin       beginChars // START TRANSACTION's characteristics
	ViewCheck   string     // CREATE VIEW's check option: NONE, CASCADED or LOCAL (view.go)
	ViewAlter   bool       // ALTER VIEW, parsed as CREATE OR REPLACE VIEW
	Locks       []LockSpec // LOCK TABLES
	Into        *IntoFile  // SELECT ... INTO OUTFILE / DUMPFILE (intofile.go)

	refsOnce sync.Once
	refs     []TableRef // TableRefs

	// AccessOnce and Access keep the privilege checks sql/access works
	// out for the statement, computed once per parse (the statement is
	// shared by every session; the checks name the session's database
	// as "" and are resolved per check).
	AccessOnce sync.Once
	Access     any

	PlanMu sync.Mutex // serializes plan builds (they annotate the AST)
	Cached atomic.Pointer[PlanEntry]
}

// PlanEntry is a compiled plan valid for one schema epoch and database.
type PlanEntry struct {
	Plan  any
	Epoch uint64
	DB    string
	Mode  sysvar.SQLMode // the sql_mode flags the build checked (planModes)
	Limit uint64         // the sql_select_limit added, plus one (0: none)
}

var (
	reDropProc      = regexp.MustCompile(`(?is)^drop\s+procedure\s+(if\s+exists\s+)?((?:` + "`[^`]+`" + `|[\w$]+)(?:\.(?:` + "`[^`]+`" + `|[\w$]+))?)\s*;?\s*$`)
	reAlterSystem   = regexp.MustCompile(`(?is)^alter\s+system\s+set\s+(.+?)\s*;?\s*$`)
	reSetPersist    = regexp.MustCompile(`(?is)^set\s+(persist|persist_only)\s+(.+?)\s*;?\s*$`)
	reResetPersist  = regexp.MustCompile(`(?is)^reset\s+persist(?:\s+(if\s+exists\s+)?([\w$]+))?\s*;?\s*$`)
	reAssign        = regexp.MustCompile(`(?is)^\s*([\w$]+)\s*=\s*('[^']*'|"[^"]*"|[^\s,]+)\s*`)
	reTenant        = regexp.MustCompile(`(?is)^\s*tenant\s*=\s*('[^']*'|"[^"]*"|[\w$]+)\s*`)
	reCheckpoint    = regexp.MustCompile(`(?is)^checkpoint\s*;?\s*$`)
	reShowEngine    = regexp.MustCompile(`(?is)^show\s+engine\s+(` + "`[^`]+`" + `|[\w$]+)\s+(status|mutex|logs)\s*;?\s*$`)
	reDropFunc      = regexp.MustCompile(`(?is)^drop\s+function\s+(if\s+exists\s+)?((?:` + "`[^`]+`" + `|[\w$]+)(?:\.(?:` + "`[^`]+`" + `|[\w$]+))?)\s*;?\s*$`)
	reShowFuncState = regexp.MustCompile(`(?is)^show\s+function\s+status(?:\s+like\s+'([^']*)')?\s*;?\s*$`)
	reShowCreateF   = regexp.MustCompile(`(?is)^show\s+create\s+function\s+((?:` + "`[^`]+`" + `|[\w$]+)(?:\.(?:` + "`[^`]+`" + `|[\w$]+))?)\s*;?\s*$`)
	reDropTrigger   = regexp.MustCompile(`(?is)^drop\s+trigger\s+(if\s+exists\s+)?((?:` + "`[^`]+`" + `|[\w$]+)(?:\.(?:` + "`[^`]+`" + `|[\w$]+))?)\s*;?\s*$`)
	reShowTriggers  = regexp.MustCompile(`(?is)^show\s+triggers(?:\s+(?:from|in)\s+(` + "`[^`]+`" + `|[\w$]+))?(?:\s+like\s+'([^']*)')?\s*;?\s*$`)
	reShowCreateTrg = regexp.MustCompile(`(?is)^show\s+create\s+trigger\s+((?:` + "`[^`]+`" + `|[\w$]+)(?:\.(?:` + "`[^`]+`" + `|[\w$]+))?)\s*;?\s*$`)
	reShowProcState = regexp.MustCompile(`(?is)^show\s+procedure\s+status(?:\s+like\s+'([^']*)')?\s*;?\s*$`)
	reShowCreateP   = regexp.MustCompile(`(?is)^show\s+create\s+procedure\s+((?:` + "`[^`]+`" + `|[\w$]+)(?:\.(?:` + "`[^`]+`" + `|[\w$]+))?)\s*;?\s*$`)
	reLoadProc      = regexp.MustCompile(`(?is)^load\s+procedures?\s+(?:from\s+)?'([^']*)'\s*;?\s*$`)
	reDoBlock       = regexp.MustCompile(`(?is)^do\s+language\s+([\w]+)\s+(?:as\s+)?(\$\w*\$)`)
	reHint          = regexp.MustCompile(`(?is)^\s*update\s*/\*\+(.*?)\*/`)
	reTarget        = regexp.MustCompile(`(?i)TARGET_AFFECT_ROW\s*\(\s*(\d+)\s*\)`)
)

// StripLeading drops leading whitespace and comments.
func StripLeading(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "/*") && !strings.HasPrefix(s, "/*!") && !strings.HasPrefix(s, "/*+"):
			i := strings.Index(s[2:], "*/")
			if i < 0 {
				return s
			}
			s = s[i+4:]
		case strings.HasPrefix(s, "-- "), strings.HasPrefix(s, "#"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		default:
			return s
		}
	}
}

// unwrapVersionComment reads a statement made wholly of MySQL's executable
// comments as the statement itself: "/*!50003 DROP FUNCTION IF EXISTS `f`
// */", and mysqldump's triggers and views, split over several ("/*!50003
// CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER ... */"),
// so that plrun's own pre-scans (CREATE TRIGGER, DROP FUNCTION) see it. A
// comment whose version is past plrun's 8.0.36 is left out, as MySQL does.
// A statement with text outside the comments is left to the SQL parser.
func unwrapVersionComment(s string) string {
	if !strings.HasPrefix(s, "/*!") {
		return s
	}
	var out []string
	for rest := s; rest != ""; rest = strings.TrimLeft(rest, " \t\r\n") {
		end := strings.Index(rest, "*/")
		if !strings.HasPrefix(rest, "/*!") || end < 0 {
			return s
		}
		body := rest[3:end]
		rest = rest[end+2:]
		digits := 0
		for digits < len(body) && digits < 6 && body[digits] >= '0' && body[digits] <= '9' {
			digits++
		}
		if digits == 5 || digits == 6 {
			version := 0
			for _, c := range body[:digits] {
				version = version*10 + int(c-'0')
			}
			if version > 80036 {
				continue
			}
			body = body[digits:]
		}
		out = append(out, strings.TrimSpace(body))
	}
	return strings.TrimRight(strings.TrimSpace(strings.Join(out, " ")), ";")
}

// parseDoBlock recognizes DO LANGUAGE lang [AS] $tag$ body $tag$ (the
// PostgreSQL form; MySQL's DO expr goes to the SQL parser): an anonymous
// block of procedure code, run at once.
func parseDoBlock(s string) (lang, body string, ok bool) {
	m := reDoBlock.FindStringSubmatchIndex(s)
	if m == nil {
		return "", "", false
	}
	tag := s[m[4]:m[5]]
	rest := s[m[1]:]
	end := strings.LastIndex(rest, tag)
	if end < 0 || strings.TrimSpace(rest[end+len(tag):]) != "" {
		return "", "", false
	}
	return s[m[2]:m[3]], rest[:end], true
}

// parseStatement parses one statement (no caching) under the parse-relevant
// part of a sql_mode (ANSI_QUOTES, PIPES_AS_CONCAT, IGNORE_SPACE,
// REAL_AS_FLOAT).
func Parse(text string, mode mysql.SQLMode) (*Stmt, error) {
	s := unwrapVersionComment(strings.TrimRight(StripLeading(text), " \t\r\n;"))
	if s == "" {
		return nil, sqlerr.New(sqlerr.ErEmptyQuery, "Query was empty")
	}
	p := &Stmt{Text: text, Hints: hints{TargetRows: -1}}
	if strings.HasPrefix(StripLeading(text), "/*!") && s != "" {
		p.Text = s // the statement the executable comments hold
	}
	switch {
	case procs.IsCreateProcedure(s):
		p.Kind = KindCreateProc
		return p, nil
	case procs.IsCreateFunction(s):
		p.Kind = KindCreateFunc
		return p, nil
	case procs.IsCreateTrigger(s):
		p.Kind = KindCreateTrigger
		return p, nil
	case reCheckpoint.MatchString(s):
		p.Kind = KindCheckpoint
		return p, nil
	}
	if ok, err := scanLockTables(s, p); ok || err != nil {
		return p, err
	}
	if ok, err := scanStartTransaction(s, p); ok || err != nil {
		return p, err
	}
	if m := reDropProc.FindStringSubmatch(s); m != nil {
		p.Kind, p.IfExists, p.Name = KindDropProc, m[1] != "", m[2]
		return p, nil
	}
	if m := reDropFunc.FindStringSubmatch(s); m != nil {
		p.Kind, p.IfExists, p.Name = KindDropFunc, m[1] != "", m[2]
		return p, nil
	}
	if m := reDropTrigger.FindStringSubmatch(s); m != nil {
		p.Kind, p.IfExists, p.Name = KindDropTrigger, m[1] != "", m[2]
		return p, nil
	}
	if m := reShowEngine.FindStringSubmatch(s); m != nil {
		// The TiDB parser has no SHOW ENGINE; tools send SHOW ENGINE
		// INNODB STATUS.
		p.Kind, p.Name, p.Like = KindShowEngine, strings.Trim(m[1], "`"), strings.ToLower(m[2])
		switch strings.ToLower(p.Name) {
		case "innodb", "plrun", "all":
		default:
			// MariaDB's parser resolves the engine: an unknown one fails
			// as a statement that never ran (no Com_show_engine_* count).
			return nil, sqlerr.New(sqlerr.ErUnknownStorageEngine, "Unknown storage engine '%s'", p.Name)
		}
		return p, nil
	}
	if m := reShowTriggers.FindStringSubmatch(s); m != nil {
		p.Kind, p.Name, p.Like = KindShowTriggers, strings.Trim(m[1], "`"), m[2]
		return p, nil
	}
	if m := reShowCreateTrg.FindStringSubmatch(s); m != nil {
		p.Kind, p.Name = KindShowCreateTrigger, m[1]
		return p, nil
	}
	if m := reShowFuncState.FindStringSubmatch(s); m != nil {
		p.Kind, p.Like = KindShowFuncStatus, m[1]
		return p, nil
	}
	if m := reShowCreateF.FindStringSubmatch(s); m != nil {
		p.Kind, p.Name = KindShowCreateFunc, m[1]
		return p, nil
	}
	if lang, body, ok := parseDoBlock(s); ok {
		p.Kind, p.Name, p.Body = KindDoBlock, lang, body
		return p, nil
	}
	if m := reLoadProc.FindStringSubmatch(s); m != nil {
		p.Kind, p.Name = KindLoadProc, m[1]
		return p, nil
	}
	if m := reShowProcState.FindStringSubmatch(s); m != nil {
		p.Kind, p.Like = KindShowProcStatus, m[1]
		return p, nil
	}
	if m := reShowCreateP.FindStringSubmatch(s); m != nil {
		p.Kind, p.Name = KindShowCreateProc, m[1]
		return p, nil
	}
	if m := reResetPersist.FindStringSubmatch(s); m != nil {
		p.Kind, p.IfExists, p.Name = KindResetPersist, m[1] != "", m[2]
		return p, nil
	}
	alter := reAlterSystem.FindStringSubmatch(s)
	persist := reSetPersist.FindStringSubmatch(s)
	if alter != nil || persist != nil {
		rest := ""
		p.Kind = KindAlterSystem
		if alter != nil {
			rest = alter[1]
		} else {
			rest, p.Kind = persist[2], KindSetPersist
			p.PersistOnly = strings.EqualFold(persist[1], "persist_only")
		}
		for rest != "" {
			a := reAssign.FindStringSubmatch(rest)
			if a == nil {
				return nil, SyntaxError(s, rest)
			}
			p.Assigns = append(p.Assigns, [2]string{a[1], strings.Trim(a[2], `'"`)})
			rest = rest[len(a[0]):]
			if t := reTenant.FindString(rest); t != "" {
				rest = rest[len(t):]
			}
			rest = strings.TrimLeft(rest, " ,")
		}
		return p, nil
	}
	if m := reHint.FindStringSubmatch(s); m != nil {
		h := strings.ToUpper(m[1])
		p.Hints.CommitOnSuccess = strings.Contains(h, "COMMIT_ON_SUCCESS")
		p.Hints.RollbackOnFail = strings.Contains(h, "ROLLBACK_ON_FAIL")
		if t := reTarget.FindStringSubmatch(m[1]); t != nil {
			var n int64
			for _, c := range t[1] {
				n = n*10 + int64(c-'0')
				if n > 1<<40 {
					break
				}
			}
			p.Hints.TargetRows = n
		}
	}
	s, err := scanIntoFile(s, p)
	if err != nil {
		return nil, err
	}
	// A fresh parser per parse: the TiDB parser reuses its node arena, so
	// a pooled one would overwrite the trees the plan cache keeps. Parses
	// are cached by text, so this is paid once per distinct statement.
	s = scanViewCheck(s, p)
	s, noCopy, err := scanNoCopy(s)
	if err != nil {
		return nil, err
	}
	s, fkNames := scanColumnFKNames(s)
	stmts, err := parseSQL(s, mode)
	if err != nil {
		if strings.Contains(err.Error(), "[parser:1083]") {
			// FIELDS ENCLOSED BY / ESCAPED BY of more than one byte
			return nil, sqlerr.New(sqlerr.ErWrongFieldTerminators, "Field separator argument is not what is expected; check the manual")
		}
		if aerr := algorithmError(s, err); aerr != nil {
			return nil, aerr
		}
		return nil, sqlerr.New(sqlerr.ErParse, "%s", tidbSyntaxMessage(err))
	}
	if len(stmts) != 1 {
		return nil, sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; expected one statement, got %d", len(stmts))
	}
	p.Node = stmts[0]
	if noCopy {
		markNoCopy(p.Node)
	}
	if fkNames != nil {
		nameColumnFKs(p.Node, fkNames)
	}
	p.Params = countParamMarkers(p.Node)
	return p, nil
}

// ParseOne parses text as exactly one statement with the TiDB parser,
// guarded as every parse is (parseSQL): what cannot parse, or would panic
// the parser, is an error. sql/psm reads types and expressions with it.
func ParseOne(text string) (ast.StmtNode, error) {
	stmts, err := parseSQL(text, 0)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("expected one statement, got %d", len(stmts))
	}
	return stmts[0], nil
}

// parseSQL runs the TiDB parser. Its test driver panics on some literals
// (a decimal with too many digits); no input may panic the engine, so a
// panic there is a syntax error.
func parseSQL(s string, mode mysql.SQLMode) (stmts []ast.StmtNode, err error) {
	defer func() {
		if r := recover(); r != nil {
			if strings.Contains(fmt.Sprint(r), "MyDecimal") {
				stmts, err = nil, errors.New("a number literal has too many digits (DECIMAL holds at most 65)")
				return
			}
			stmts, err = nil, fmt.Errorf("the statement cannot be parsed (%v)", r)
		}
	}()
	ps := parser.New()
	ps.SetSQLMode(mode)
	stmts, _, err = ps.ParseSQL(s)
	return stmts, err
}

func SyntaxError(stmt, near string) error {
	if len(near) > 80 {
		near = near[:80]
	}
	return sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", near)
}

// tidbSyntaxMessage rewrites the TiDB parser's message into MySQL's wording.
func tidbSyntaxMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "near \""); i >= 0 {
		near := msg[i+6:]
		line := "1"
		if j := strings.LastIndex(near, "\" "); j >= 0 {
			near = near[:j]
		}
		if k := strings.Index(msg, "line "); k >= 0 {
			f := strings.Fields(msg[k+5:])
			if len(f) > 0 {
				line = f[0]
			}
		}
		return "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + near + "' at line " + line
	}
	if strings.Contains(msg, "line 1 column") && strings.HasSuffix(strings.TrimSpace(msg), "near \"\"") {
		return "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1"
	}
	return "You have an error in your SQL syntax; " + msg
}

type paramCounter struct {
	markers []*test_driver.ParamMarkerExpr
}

func (v *paramCounter) Enter(n ast.Node) (ast.Node, bool) {
	if m, ok := n.(*test_driver.ParamMarkerExpr); ok {
		v.markers = append(v.markers, m)
	}
	return n, false
}
func (v *paramCounter) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// countParamMarkers numbers the ? placeholders in text order (the parser
// leaves Order unset) and returns how many there are.
func countParamMarkers(n ast.Node) int {
	var c paramCounter
	n.Accept(&c)
	sort.Slice(c.markers, func(i, j int) bool { return c.markers[i].Offset < c.markers[j].Offset })
	for i, m := range c.markers {
		m.Order = i
	}
	return len(c.markers)
}

// CountParams returns the number of ? placeholders in one statement, parsed
// under the default sql_mode (Session.CountParams uses the session's).
func CountParams(query string) (int, error) {
	p, err := Parse(query, 0)
	if err != nil {
		return 0, err
	}
	return p.Params, nil
}

// planCache maps statement text, and the parse-relevant sql_mode flags it
// was parsed under, to its parse, so a hot statement is parsed once. It is
// bounded: past its size it is cleared wholesale (cheap, and hot
// statements come straight back).
type Cache struct {
	mu  sync.RWMutex
	m   map[planKey]*Stmt
	max int
}

// planKey: the same text parses differently under ANSI_QUOTES ("x" is a
// column) or PIPES_AS_CONCAT (|| is CONCAT).
type planKey struct {
	text string
	mode mysql.SQLMode
}

func NewCache(max int) *Cache { return &Cache{m: make(map[planKey]*Stmt), max: max} }

func (c *Cache) Get(text string, mode mysql.SQLMode) (*Stmt, error) {
	k := planKey{text, mode}
	c.mu.RLock()
	p := c.m[k]
	c.mu.RUnlock()
	if p != nil {
		return p, nil
	}
	p, err := Parse(text, mode)
	if err != nil {
		return nil, err
	}
	if p.Kind == KindCreateProc || p.Kind == KindCreateFunc || p.Kind == KindCreateTrigger || len(text) > 8192 {
		return p, nil
	}
	c.mu.Lock()
	if len(c.m) >= c.max {
		c.m = make(map[planKey]*Stmt)
	}
	c.m[k] = p
	c.mu.Unlock()
	return p, nil
}
