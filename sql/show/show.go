package show

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/infoschema"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Source is what SHOW reads of the session and the database around it.
type Source interface {
	Catalog() *storage.Catalog
	Procs() *procs.Catalog
	SysVar(d *sysvar.Def, global bool) string
	Status() [][2]string
	Processlist() []SessionInfo
	// Warnings are the last statement's notes (SHOW WARNINGS, SHOW ERRORS).
	Warnings() []exec.Note
}

// TriggerSource is a Source that has triggers: SHOW TRIGGERS [FROM db]
// [LIKE 'table pattern'] (the sql layer's).
type TriggerSource interface {
	Triggers(db, like string) (*exec.Result, error)
}

// SessionInfo is one SHOW PROCESSLIST row.
type SessionInfo = infoschema.SessionInfo

func StringRows(cols []string, rows [][]string) *exec.Result {
	r := &exec.Result{}
	for _, c := range cols {
		r.Columns = append(r.Columns, exec.Column{Name: c, Type: expr.TVarchar})
	}
	for _, row := range rows {
		vs := make([]types.Value, len(row))
		for i, v := range row {
			vs[i] = types.StringValue(v)
		}
		r.Rows = append(r.Rows, vs)
	}
	return r
}

func likeFilter(p *ast.PatternLikeOrIlikeExpr) func(string) bool {
	if p == nil {
		return func(string) bool { return true }
	}
	pat := expr.RestoreString(p.Pattern)
	return func(s string) bool { return expr.LikeMatch(pat, s) }
}

// likeSuffix is what MariaDB adds to the first column's name of SHOW
// DATABASES and SHOW TABLES with LIKE: " (pattern)".
func likeSuffix(n *ast.ShowStmt) string {
	if n.Pattern == nil {
		return ""
	}
	return " (" + expr.RestoreString(n.Pattern.Pattern) + ")"
}

// Exec answers SHOW n; its WHERE, if any, keeps the rows for which it is
// true, naming the result's columns, as MariaDB's SHOW ... WHERE does.
func Exec(ctx context.Context, s *exec.State, src Source, x *txn.Txn, n *ast.ShowStmt) (*exec.Result, error) {
	r, err := rows(ctx, s, src, x, n)
	if err != nil || n.Where == nil {
		return r, err
	}
	return filterWhere(ctx, s, x, r, n.Where)
}

func rows(ctx context.Context, s *exec.State, src Source, x *txn.Txn, n *ast.ShowStmt) (*exec.Result, error) {
	cat := src.Catalog()
	match := likeFilter(n.Pattern)
	switch n.Tp {
	case ast.ShowDatabases:
		var rows [][]string
		for _, d := range infoschema.Databases(cat) {
			if match(d) {
				rows = append(rows, []string{d})
			}
		}
		return StringRows([]string{"Database" + likeSuffix(n)}, rows), nil
	case ast.ShowTables:
		db, err := s.DBFor(n.DBName)
		if err != nil {
			return nil, err
		}
		if s.IsVirtual(db) {
			return virtualTables(s.VirtualName(db), n, match), nil
		}
		if !cat.HasDatabase(db) {
			return nil, sqlerr.New(sqlerr.ErBadDB, "Unknown database '%s'", db)
		}
		var rows [][]string
		for _, t := range tablesAndViews(cat, db) {
			if match(t.name) {
				row := []string{t.name}
				if n.Full {
					row = append(row, t.kind)
				}
				rows = append(rows, row)
			}
		}
		cols := []string{"Tables_in_" + cat.DatabaseName(db) + likeSuffix(n)}
		if n.Full {
			cols = append(cols, "Table_type")
		}
		return StringRows(cols, rows), nil
	case ast.ShowColumns:
		t, err := s.ResolveTable(n.Table)
		if err != nil {
			if vt, verr := s.ViewTable(n.Table); verr != nil || vt != nil {
				t, err = vt, verr // a view's columns
			}
		}
		if err != nil {
			return nil, err
		}
		if n.Full {
			return describeFull(s.SessionDef(t.Def), match), nil
		}
		return describe(s.SessionDef(t.Def), match), nil
	case ast.ShowProcedureStatus:
		// the LIKE form is parse.KindShowProcStatus; this is the WHERE one
		return ProcStatus(cat, src.Procs(), ""), nil
	case ast.ShowFunctionStatus:
		return FuncStatus(cat, src.Procs(), ""), nil
	case ast.ShowCreateDatabase:
		return createDatabase(s, cat, n)
	case ast.ShowCreateView:
		db, err := s.DBFor(n.Table.Schema.O)
		if err != nil {
			return nil, err
		}
		return showCreateView(cat, db, n.Table.Name.O, s.DB)
	case ast.ShowCreateTable:
		t, err := s.ResolveTable(n.Table)
		if err != nil {
			if db, dberr := s.DBFor(n.Table.Schema.O); dberr == nil && cat.View(db, n.Table.Name.O) != nil {
				return showCreateView(cat, db, n.Table.Name.O, s.DB)
			}
			return nil, err
		}
		return StringRows([]string{"Table", "Create Table"}, [][]string{{t.Def.Name, showCreateTable(t, s.SessionDef(t.Def))}}), nil
	case ast.ShowIndex:
		t, err := s.ResolveTable(n.Table)
		if err != nil {
			return nil, err
		}
		cols, rows := infoschema.ShowIndex(t)
		r := &exec.Result{Rows: rows}
		for _, c := range cols {
			r.Columns = append(r.Columns, exec.Column{Name: c.Name, Type: c.Type, NotNull: c.NotNull})
		}
		return r, nil
	case ast.ShowVariables:
		var rows [][]string
		for _, name := range sysvar.SortedNames() {
			if !match(name) {
				continue
			}
			d := sysvar.Defs[name]
			rows = append(rows, []string{name, src.SysVar(d, n.GlobalScope)})
		}
		return StringRows([]string{"Variable_name", "Value"}, rows), nil
	case ast.ShowStatus:
		var rows [][]string
		for _, r := range src.Status() {
			if match(r[0]) {
				rows = append(rows, []string{r[0], r[1]})
			}
		}
		return StringRows([]string{"Variable_name", "Value"}, rows), nil
	case ast.ShowProcessList:
		r := &exec.Result{Columns: []exec.Column{
			{Name: "Id", Type: types.ColType{Base: types.TBigInt, Unsigned: true}}, {Name: "User", Type: expr.TVarchar}, {Name: "Host", Type: expr.TVarchar},
			{Name: "db", Type: expr.TVarchar}, {Name: "Command", Type: expr.TVarchar}, {Name: "Time", Type: expr.TBigInt},
			{Name: "State", Type: expr.TVarchar}, {Name: "Info", Type: expr.TVarchar}}}
		for _, si := range src.Processlist() {
			info := types.Null
			if si.Info != "" {
				info = types.StringValue(si.Info)
			}
			db := types.Null
			if si.DB != "" {
				db = types.StringValue(si.DB)
			}
			r.Rows = append(r.Rows, []types.Value{types.UintValue(si.ID), types.StringValue(si.User), types.StringValue(si.Host),
				db, types.StringValue(si.Command), types.IntValue(si.Time), types.StringValue(si.State), info})
		}
		return r, nil
	case ast.ShowWarnings, ast.ShowErrors:
		var notes []exec.Note
		for _, nt := range src.Warnings() {
			if n.Tp == ast.ShowWarnings || nt.Level == "Error" {
				notes = append(notes, nt)
			}
		}
		if n.CountWarningsOrErrors {
			name := "@@session.warning_count"
			if n.Tp == ast.ShowErrors {
				name = "@@session.error_count"
			}
			return &exec.Result{Columns: []exec.Column{{Name: name, Type: expr.TBigInt}}, Rows: [][]types.Value{{types.IntValue(int64(len(notes)))}}}, nil
		}
		r := &exec.Result{Columns: []exec.Column{{Name: "Level", Type: expr.TVarchar}, {Name: "Code", Type: types.ColType{Base: types.TInt, Unsigned: true}}, {Name: "Message", Type: expr.TVarchar}}}
		for _, nt := range notes {
			r.Rows = append(r.Rows, []types.Value{types.StringValue(nt.Level), types.UintValue(uint64(nt.Code)), types.StringValue(nt.Message)})
		}
		return r, nil
	case ast.ShowEngines:
		return StringRows([]string{"Engine", "Support", "Comment", "Transactions", "XA", "Savepoints"}, infoschema.Engines), nil
	case ast.ShowCharset:
		return StringRows([]string{"Charset", "Description", "Default collation", "Maxlen"}, filterFirst(infoschema.CharacterSets, match)), nil
	case ast.ShowCollation:
		return StringRows([]string{"Collation", "Charset", "Id", "Default", "Compiled", "Sortlen"}, filterFirst(infoschema.Collations, match)), nil
	case ast.ShowTableStatus:
		return tableStatus(s, cat, n, match)
	case ast.ShowTriggers:
		// SHOW TRIGGERS ... WHERE (the other forms are sql's own statement)
		if ts, ok := src.(TriggerSource); ok {
			like := ""
			if n.Pattern != nil {
				like = expr.RestoreString(n.Pattern.Pattern)
			}
			return ts.Triggers(n.DBName, like)
		}
	}
	return nil, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support this SHOW statement")
}

// filterFirst keeps the rows whose first column LIKE matches.
func filterFirst(rows [][]string, match func(string) bool) [][]string {
	var out [][]string
	for _, r := range rows {
		if match(r[0]) {
			out = append(out, r)
		}
	}
	return out
}

// describe is SHOW COLUMNS of def (as the session sees it: SessionDef).
func describe(def *storage.TableDef, match func(string) bool) *exec.Result {
	r := &exec.Result{}
	for _, c := range []string{"Field", "Type", "Null", "Key", "Default", "Extra"} {
		r.Columns = append(r.Columns, exec.Column{Name: c, Type: expr.TVarchar})
	}
	for i := range def.Columns {
		c := &def.Columns[i]
		if !match(c.Name) {
			continue
		}
		r.Rows = append(r.Rows, []types.Value{types.StringValue(c.Name), types.StringValue(c.Type.SQL()), types.StringValue(nullable(c)),
			types.StringValue(infoschema.ColumnKey(def, i)), infoschema.ShowDefault(c), types.StringValue(infoschema.Extra(c))})
	}
	return r
}

func nullable(c *storage.Column) string {
	if c.NotNull {
		return "NO"
	}
	return "YES"
}

func quoteName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

func quoteString(s string) string {
	return "'" + defaultEscapes.Replace(s) + "'"
}

// defaultEscapes are the escapes MariaDB writes in a default's literal
// (a BINARY(n) default's 0x00 padding is \0).
var defaultEscapes = strings.NewReplacer(`\`, `\\`, `'`, `''`, "\x00", `\0`, "\n", `\n`, "\r", `\r`)

// showCreateTable is SHOW CREATE TABLE of t, whose definition as the
// session sees it (SessionDef) is def.
func showCreateTable(t *storage.Table, def *storage.TableDef) string {
	var b strings.Builder
	kind := "TABLE"
	if def.Temporary {
		kind = "TEMPORARY TABLE"
	}
	fmt.Fprintf(&b, "CREATE %s %s (\n", kind, quoteName(def.Name))
	var lines []string
	for _, c := range def.Columns {
		l := "  " + quoteName(c.Name) + " " + c.Type.SQL()
		if c.Type.JSON {
			l += " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin" // as MariaDB declares JSON
		}
		if c.NotNull {
			l += " NOT NULL"
		} else if c.Type.Base == types.TTimestamp {
			l += " NULL" // MariaDB names a nullable TIMESTAMP's NULL (its TIMESTAMP is NOT NULL unless told)
		}
		switch {
		case c.AutoIncrement:
			l += " AUTO_INCREMENT"
		case c.DefaultNow:
			l += " DEFAULT " + c.NowText()
		case c.HasDefault && c.Default.IsNull():
			l += " DEFAULT NULL"
		case c.HasDefault && c.Default.IsBit():
			l += " DEFAULT " + types.BitLiteral(c.Default)
		case c.HasDefault:
			if c.Default.IsNumeric() {
				l += " DEFAULT " + c.Default.String()
			} else {
				l += " DEFAULT " + quoteString(c.Default.String())
			}
		case !c.NotNull:
			l += " DEFAULT NULL"
		}
		if c.OnUpdateNow {
			l += " ON UPDATE " + c.NowText()
		}
		if c.Comment != "" {
			l += " COMMENT " + quoteString(c.Comment)
		}
		check := columnCheck(def, c.Name)
		if c.Type.JSON && check == "" {
			// a JSON column's own check (one declared LONGTEXT ... CHECK
			// (json_valid(c)) has it among the table's checks already)
			check = " CHECK (json_valid(" + quoteName(c.Name) + "))"
		}
		l += check
		lines = append(lines, l)
	}
	for _, ix := range def.Indexes {
		var cols []string
		for i, c := range ix.Cols {
			col := quoteName(def.Columns[c].Name)
			if i < len(ix.Prefix) && ix.Prefix[i] > 0 {
				col += "(" + strconv.Itoa(ix.Prefix[i]) + ")"
			}
			if i < len(ix.Desc) && ix.Desc[i] {
				col += " DESC"
			}
			cols = append(cols, col)
		}
		using := ""
		if ix.Using != "" {
			using = " USING " + ix.Using
		}
		switch {
		case ix.Primary:
			lines = append(lines, "  PRIMARY KEY ("+strings.Join(cols, ",")+")"+using)
		case ix.Unique:
			lines = append(lines, "  UNIQUE KEY "+quoteName(ix.Name)+" ("+strings.Join(cols, ",")+")"+using)
		default:
			lines = append(lines, "  KEY "+quoteName(ix.Name)+" ("+strings.Join(cols, ",")+")"+using)
		}
	}
	lines = append(lines, constraintLines(def)...)
	b.WriteString(strings.Join(lines, ",\n"))
	fmt.Fprintf(&b, "\n) ENGINE=%s", def.Engine)
	if ai := t.AutoInc(); def.AutoIncColumn() >= 0 && ai > 0 {
		fmt.Fprintf(&b, " AUTO_INCREMENT=%d", ai+1)
	}
	fmt.Fprintf(&b, " DEFAULT CHARSET=%s COLLATE=%s", def.Charset, def.Collate)
	if def.Comment != "" {
		b.WriteString(" COMMENT=" + quoteString(def.Comment))
	}
	return b.String()
}
