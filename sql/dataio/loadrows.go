package dataio

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// batchRows is how many lines one INSERT takes: enough that the per-
// statement work (plan lookup, write setup, notes) is spread thin, few
// enough that the batch's arguments stay small.
const batchRows = 256

// A loader inserts a file's lines into one table: lines in batches, each
// batch one multi-row INSERT of ? placeholders. A line that LOAD DATA
// itself warns about (too few or too many fields, a NULL field for a NOT
// NULL column) goes alone, after the batch before it, so every warning
// stays in line order; so does every line when fields go to user
// variables (a SET expression reads them per line).
type loader struct {
	h       Host
	targets []target
	verb    string // INSERT INTO, INSERT IGNORE INTO, REPLACE INTO
	head    string // the INSERT up to VALUES
	row     string // one row's VALUES tuple
	batched bool
	plans   map[int]insertPlan // by row count
}

// target is where a field goes: a column or a user variable.
type target struct {
	col     string
	userVar string
	// notNull: a NULL field for the column is MariaDB's 1263 (the
	// column's implicit default, or an error in strict mode). Not for
	// AUTO_INCREMENT (NULL generates) or TIMESTAMP (NULL is now) columns.
	notNull bool
	zero    types.Value // the implicit default
	// missing is the column's value when a short line has no field for
	// it: as MariaDB's, not its DEFAULT but NULL, or, for a NOT NULL
	// column or one with a non-NULL DEFAULT, the type's zero value.
	missing types.Value
}

func columnTarget(c *storage.Column) target {
	tg := target{col: c.Name}
	if c.AutoIncrement || c.Type.Base == types.TTimestamp {
		return tg // NULL generates the next value, or now
	}
	zero, ok := types.ImplicitDefault(c.Type)
	if !ok {
		return tg
	}
	tg.zero, tg.notNull = zero, c.NotNull
	if c.NotNull || c.HasDefault && !c.Default.IsNull() {
		tg.missing = zero
	}
	return tg
}

type insertPlan struct {
	p   *parse.Stmt
	ins *ast.InsertStmt
}

func newLoader(h Host, n *ast.LoadDataStmt) (*loader, error) {
	st := h.Statement()
	db := n.Table.Schema.O
	if db == "" {
		if db = st.DB; db == "" {
			return nil, sqlerr.New(sqlerr.ErNoDB, "No database selected")
		}
	}
	t := h.Table(db, n.Table.Name.O)
	if t == nil {
		return nil, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, n.Table.Name.O)
	}
	l := &loader{h: h, batched: true, plans: map[int]insertPlan{}}
	if len(n.ColumnsAndUserVars) == 0 {
		for i := range t.Def.Columns {
			l.targets = append(l.targets, columnTarget(&t.Def.Columns[i]))
		}
	}
	for _, cv := range n.ColumnsAndUserVars {
		if cv.UserVar != nil {
			l.targets = append(l.targets, target{userVar: strings.ToLower(cv.UserVar.Name)})
			l.batched = false
		} else if i := t.Def.ColumnIndex(cv.ColumnName.Name.O); i >= 0 {
			l.targets = append(l.targets, columnTarget(&t.Def.Columns[i]))
		} else {
			l.targets = append(l.targets, target{col: cv.ColumnName.Name.O}) // INSERT says 1054
		}
	}
	var cols, values []string
	for _, tg := range l.targets {
		if tg.col != "" {
			cols = append(cols, quoteIdent(tg.col))
			values = append(values, "?")
		}
	}
	for _, a := range n.ColumnAssignments {
		text, err := restoreExpr(a.Expr)
		if err != nil {
			return nil, err
		}
		cols = append(cols, quoteIdent(a.Column.Name.O))
		values = append(values, "("+text+")")
	}
	l.verb = "INSERT INTO"
	switch {
	case n.OnDuplicate == ast.OnDuplicateKeyHandlingReplace:
		l.verb = "REPLACE INTO"
	case n.OnDuplicate == ast.OnDuplicateKeyHandlingIgnore || n.FileLocRef == ast.FileLocClient:
		l.verb = "INSERT IGNORE INTO"
	}
	l.head = fmt.Sprintf("%s %s.%s (%s) VALUES ", l.verb, quoteIdent(db), quoteIdent(t.Def.Name), strings.Join(cols, ", "))
	l.row = "(" + strings.Join(values, ", ") + ")"
	if _, err := l.plan(1); err != nil {
		return nil, err
	}
	return l, nil
}

// plan is the INSERT of rows lines.
func (l *loader) plan(rows int) (insertPlan, error) {
	if ip, ok := l.plans[rows]; ok {
		return ip, nil
	}
	var sb strings.Builder
	sb.WriteString(l.head)
	for i := 0; i < rows; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(l.row)
	}
	p, err := l.h.Plan(sb.String())
	if err != nil {
		return insertPlan{}, err
	}
	ins, ok := p.Node.(*ast.InsertStmt)
	if !ok {
		return insertPlan{}, fmt.Errorf("LOAD DATA: %q is no INSERT", l.head)
	}
	ip := insertPlan{p: p, ins: ins}
	l.plans[rows] = ip
	return ip, nil
}

// loadRun is one LOAD DATA's progress.
type loadRun struct {
	out                       *exec.Result
	records, deleted, skipped uint64
	firstID                   uint64 // the first AUTO_INCREMENT value generated
	args                      []types.Value
	pending                   int    // lines in args
	first                     uint64 // the line number of the first of them
}

func (r *loadRun) warn(n exec.Note) {
	r.out.Warnings = uint16(min(int(r.out.Warnings)+1, 65535))
	if len(r.out.Notes) < expr.MaxNotes {
		r.out.Notes = append(r.out.Notes, n)
	}
}

func warning(code uint16, msg string) exec.Note {
	return exec.Note{Level: "Warning", Code: code, Message: msg}
}

// run inserts the lines r reads, in x.
func (l *loader) run(ctx context.Context, x *txn.Txn, fr *fieldReader) (*exec.Result, error) {
	st := l.h.Statement()
	run := &loadRun{out: &exec.Result{}, args: make([]types.Value, 0, len(l.targets)*batchRows)}
	// In strict mode (and without IGNORE; REPLACE too) a short or long
	// line is an error, as in MariaDB; otherwise a warning.
	strict := st.SQLMode().Strict() && l.verb != "INSERT IGNORE INTO"
	for line := uint64(1); ; line++ {
		fields, ok := fr.next()
		if !ok {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, context.Cause(ctx)
		}
		run.records++
		if l.batched && len(fields) == len(l.targets) && !l.nullForNotNull(fields) {
			if run.pending == 0 {
				run.first = line
			}
			for _, f := range fields {
				run.args = append(run.args, fieldValue(f))
			}
			if run.pending++; run.pending == batchRows {
				if err := l.flush(ctx, x, run); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := l.flush(ctx, x, run); err != nil {
			return nil, err
		}
		if err := l.alone(ctx, x, run, line, fields, strict); err != nil {
			return nil, err
		}
	}
	if err := l.flush(ctx, x, run); err != nil {
		return nil, err
	}
	if run.firstID != 0 {
		// LAST_INSERT_ID() is the statement's first generated value, as
		// for any INSERT; MariaDB's OK for LOAD DATA carries no insert id.
		st.LastInsertID = run.firstID
	}
	run.out.Info = fmt.Sprintf("Records: %d  Deleted: %d  Skipped: %d  Warnings: %d", run.records, run.deleted, run.skipped, run.out.Warnings)
	return run.out, nil
}

// nullForNotNull reports whether a field of the line is NULL for a NOT
// NULL column.
func (l *loader) nullForNotNull(fields []loadField) bool {
	for i, f := range fields {
		if f.null && i < len(l.targets) && l.targets[i].notNull {
			return true
		}
	}
	return false
}

func fieldValue(f loadField) types.Value {
	if f.null {
		return types.Null
	}
	return types.StringValue(f.text)
}

// alone inserts one line by itself: its fields go to user variables, or
// it has too few or too many (warned or, strict, refused, in line order).
func (l *loader) alone(ctx context.Context, x *txn.Txn, run *loadRun, line uint64, fields []loadField, strict bool) error {
	st := l.h.Statement()
	for i, tg := range l.targets {
		v := types.Null
		if i < len(fields) {
			v = fieldValue(fields[i])
			if v.IsNull() && tg.notNull {
				msg := fmt.Sprintf("Column set to default value; NULL supplied to NOT NULL column '%s' at row %d", tg.col, line)
				if strict {
					return sqlerr.New(sqlerr.ErNullToNotNull, "%s", msg)
				}
				run.warn(warning(sqlerr.ErNullToNotNull, msg))
				v = tg.zero
			}
		} else {
			msg := fmt.Sprintf("Row %d doesn't contain data for all columns", line)
			if strict {
				return sqlerr.New(sqlerr.ErTooFewFieldsInLine, "%s", msg)
			}
			run.warn(warning(sqlerr.ErTooFewFieldsInLine, msg))
			v = tg.missing
		}
		if tg.userVar != "" {
			st.UserVars[tg.userVar] = v
			continue
		}
		run.args = append(run.args, v)
	}
	run.pending, run.first = 1, line
	if err := l.flush(ctx, x, run); err != nil {
		return err
	}
	if len(fields) > len(l.targets) {
		msg := fmt.Sprintf("Row %d was truncated; it contained more data than there were input columns", line)
		if strict {
			return sqlerr.New(sqlerr.ErTooManyFieldsInLine, "%s", msg)
		}
		run.warn(warning(sqlerr.ErTooManyFieldsInLine, msg))
	}
	return nil
}

// flush inserts the pending lines as one INSERT; its warnings and error
// name the file's lines.
func (l *loader) flush(ctx context.Context, x *txn.Txn, run *loadRun) error {
	rows := run.pending
	if rows == 0 {
		return nil
	}
	ip, err := l.plan(rows)
	if err != nil {
		return err
	}
	st := l.h.Statement()
	offset := run.first - 1
	notesBefore, warnsBefore, idBefore := len(st.StmtNotes), st.StmtWarnings, st.LastInsertID
	st.LoadRows(true)
	res, err := st.ExecInsert(ctx, x, ip.p, ip.ins, run.args)
	st.LoadRows(false)
	run.args, run.pending = run.args[:0], 0
	for _, note := range st.StmtNotes[notesBefore:] {
		note.Message = atRow(note.Message, offset)
		run.warn(note)
	}
	if extra := st.StmtWarnings - warnsBefore - (len(st.StmtNotes) - notesBefore); extra > 0 {
		run.out.Warnings = uint16(min(int(run.out.Warnings)+extra, 65535))
	}
	st.StmtNotes, st.StmtWarnings = st.StmtNotes[:notesBefore], warnsBefore
	if err != nil {
		if e, ok := sqlerr.As(err); ok {
			return &sqlerr.Error{Code: e.Code, State: e.State, Message: atRow(e.Message, offset)}
		}
		return err
	}
	for _, note := range res.Notes {
		note.Message = atRow(note.Message, offset)
		run.warn(note)
	}
	if l.verb == "REPLACE INTO" {
		run.deleted += res.AffectedRows - uint64(rows) // each line is one row in, the rest are rows it replaced
	} else {
		run.skipped += uint64(rows) - res.AffectedRows
	}
	run.out.AffectedRows += res.AffectedRows
	if st.LastInsertID != idBefore && run.firstID == 0 {
		run.firstID = st.LastInsertID
	}
	return nil
}

var reAtRow = regexp.MustCompile(`at row (\d+)$`)

// atRow gives an INSERT's message ("... at row k", k counted in its
// batch) the file's line number: k + offset.
func atRow(msg string, offset uint64) string {
	m := reAtRow.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg
	}
	k, err := strconv.ParseUint(msg[m[2]:m[3]], 10, 64)
	if err != nil {
		return msg
	}
	return msg[:m[2]] + strconv.FormatUint(k+offset, 10)
}
