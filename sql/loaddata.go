package sql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// LocalFileOpener opens the file a LOAD DATA LOCAL INFILE names on the
// client's side: the server asks the client over the protocol, the REPL
// and the Go API read their own file system. Without one, LOCAL is
// refused (1148), as a client without local-infile is.
type LocalFileOpener func(ctx context.Context, name string) (io.ReadCloser, error)

// LocalFilesystem opens a LOCAL file from this process's file system: the
// opener of the REPL and the Go API, where the client is this process
// (no secure_file_priv, which bounds the server's files, as in MySQL).
func LocalFilesystem(_ context.Context, name string) (io.ReadCloser, error) { return os.Open(name) }

// SetLocalFiles sets how the session reads LOAD DATA LOCAL files.
func (s *Session) SetLocalFiles(open LocalFileOpener) { s.localFiles = open }

// errCantGetStat is MariaDB's error 13 (EE_STAT) for a missing file.
const errCantGetStat uint16 = 13

// execLoadData is LOAD DATA [LOCAL] INFILE: each line of the file becomes
// a row inserted as INSERT would insert the fields as strings (the same
// conversions, warnings and strict-mode errors), in one statement: an
// error undoes every row (REPLACE / IGNORE decide duplicates; LOCAL
// implies IGNORE, as in MySQL, the file having been sent already).
func (s *Session) execLoadData(ctx context.Context, p *parse.Stmt, n *ast.LoadDataStmt) (*exec.Result, uint64, error) {
	if s.callDepth > 0 {
		return nil, 0, errInRoutine("LOAD DATA")
	}
	format, err := loadFormat(n)
	if err != nil {
		return nil, 0, err
	}
	data, err := s.readLoadFile(ctx, n)
	if err != nil {
		return nil, 0, err
	}
	// Without CHARACTER SET the file is in character_set_database, as in
	// MySQL (mariadb-import sets it to binary).
	cs := s.getVar(sysvar.Defs["character_set_database"], false)
	if n.Charset != nil {
		cs = *n.Charset
	}
	if data, err = toUTF8(data, cs); err != nil {
		return nil, 0, err
	}
	db := n.Table.Schema.O
	if db == "" {
		if db = s.DB; db == "" {
			return nil, 0, sqlerr.New(sqlerr.ErNoDB, "No database selected")
		}
	}
	t := s.database.Txns.Catalog().Table(db, n.Table.Name.O)
	if t == nil {
		return nil, 0, sqlerr.New(sqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, n.Table.Name.O)
	}
	// The targets of the fields, in order: a column or a user variable.
	type target struct {
		col     string
		userVar string
	}
	var targets []target
	if len(n.ColumnsAndUserVars) == 0 {
		for _, c := range t.Def.Columns {
			targets = append(targets, target{col: c.Name})
		}
	}
	for _, cv := range n.ColumnsAndUserVars {
		if cv.UserVar != nil {
			targets = append(targets, target{userVar: strings.ToLower(cv.UserVar.Name)})
		} else {
			targets = append(targets, target{col: cv.ColumnName.Name.O})
		}
	}
	var cols, values []string
	for _, tg := range targets {
		if tg.col != "" {
			cols = append(cols, quoteIdent(tg.col))
			values = append(values, "?")
		}
	}
	for _, a := range n.ColumnAssignments {
		text, err := restoreExpr(a.Expr)
		if err != nil {
			return nil, 0, err
		}
		cols = append(cols, quoteIdent(a.Column.Name.O))
		values = append(values, "("+text+")")
	}
	verb := "INSERT INTO"
	switch {
	case n.OnDuplicate == ast.OnDuplicateKeyHandlingReplace:
		verb = "REPLACE INTO"
	case n.OnDuplicate == ast.OnDuplicateKeyHandlingIgnore || n.FileLocRef == ast.FileLocClient:
		verb = "INSERT IGNORE INTO"
	}
	insText := fmt.Sprintf("%s %s.%s (%s) VALUES (%s)", verb, quoteIdent(db), quoteIdent(t.Def.Name), strings.Join(cols, ", "), strings.Join(values, ", "))
	ip, err := s.database.plans.Get(insText, s.SQLMode().ParserMode())
	if err != nil {
		return nil, 0, err
	}
	ins, ok := ip.Node.(*ast.InsertStmt)
	if !ok {
		return nil, 0, fmt.Errorf("LOAD DATA: %q is no INSERT", insText)
	}
	r := newFieldReader(data, format)
	if n.IgnoreLines != nil {
		for i := uint64(0); i < *n.IgnoreLines; i++ {
			if _, ok := r.next(); !ok {
				break
			}
		}
	}
	return s.runDML(ctx, p, nil, func(x *txn.Txn) (*exec.Result, error) {
		out := &exec.Result{}
		warn := func(code uint16, msg string) {
			out.Warnings = uint16(min(int(out.Warnings)+1, 65535))
			if len(out.Notes) < expr.MaxNotes {
				out.Notes = append(out.Notes, exec.Note{Level: "Warning", Code: code, Message: msg})
			}
		}
		// In strict mode (and without IGNORE) a short or long line is an
		// error, as in MariaDB; otherwise a warning.
		strict := s.SQLMode().Strict() && verb == "INSERT INTO"
		var records, deleted, skipped uint64
		args := make([]types.Value, 0, len(cols))
		for row := uint64(1); ; row++ {
			fields, ok := r.next()
			if !ok {
				break
			}
			if err := ctx.Err(); err != nil {
				return nil, context.Cause(ctx)
			}
			records++
			args = args[:0]
			for i, tg := range targets {
				v := types.Null
				if i < len(fields) {
					if !fields[i].null {
						v = types.StringValue(fields[i].text)
					}
				} else {
					msg := fmt.Sprintf("Row %d doesn't contain data for all columns", row)
					if strict {
						return nil, sqlerr.New(sqlerr.ErTooFewFieldsInLine, "%s", msg)
					}
					warn(sqlerr.ErTooFewFieldsInLine, msg)
				}
				if tg.userVar != "" {
					s.UserVars[tg.userVar] = v
					continue
				}
				args = append(args, v)
			}
			notesBefore, warnsBefore := len(s.StmtNotes), s.StmtWarnings
			res, err := s.ExecInsert(ctx, x, ip, ins, args)
			for _, note := range s.StmtNotes[notesBefore:] {
				warnNote := note
				warnNote.Message = atRow(note.Message, row)
				out.Warnings++
				if len(out.Notes) < expr.MaxNotes {
					out.Notes = append(out.Notes, warnNote)
				}
			}
			if extra := s.StmtWarnings - warnsBefore - (len(s.StmtNotes) - notesBefore); extra > 0 {
				out.Warnings = uint16(min(int(out.Warnings)+extra, 65535))
			}
			s.StmtNotes, s.StmtWarnings = s.StmtNotes[:notesBefore], warnsBefore
			if err != nil {
				if e, ok := sqlerr.As(err); ok {
					return nil, &sqlerr.Error{Code: e.Code, State: e.State, Message: atRow(e.Message, row)}
				}
				return nil, err
			}
			for _, note := range res.Notes {
				warn(note.Code, atRow(note.Message, row))
			}
			switch {
			case res.AffectedRows == 0:
				skipped++
			case res.AffectedRows >= 2 && verb == "REPLACE INTO":
				deleted += res.AffectedRows - 1
			}
			out.AffectedRows += res.AffectedRows
			if res.LastInsertID != 0 && out.LastInsertID == 0 {
				out.LastInsertID = res.LastInsertID
			}
			if len(fields) > len(targets) {
				msg := fmt.Sprintf("Row %d was truncated; it contained more data than there were input columns", row)
				if strict {
					return nil, sqlerr.New(sqlerr.ErTooManyFieldsInLine, "%s", msg)
				}
				warn(sqlerr.ErTooManyFieldsInLine, msg)
			}
		}
		out.Info = fmt.Sprintf("Records: %d  Deleted: %d  Skipped: %d  Warnings: %d", records, deleted, skipped, out.Warnings)
		return out, nil
	})
}

var reAtRow = regexp.MustCompile(`at row 1$`)

// atRow gives an INSERT's message the file's row number.
func atRow(msg string, row uint64) string {
	return reAtRow.ReplaceAllString(msg, "at row "+strconv.FormatUint(row, 10))
}

// readLoadFile reads the whole file: from the client (LOCAL) or from the
// server's file system, bounded by secure_file_priv.
func (s *Session) readLoadFile(ctx context.Context, n *ast.LoadDataStmt) ([]byte, error) {
	if n.FileLocRef == ast.FileLocClient {
		if s.localFiles == nil {
			return nil, sqlerr.New(sqlerr.ErNotAllowedCommand, "The used command is not allowed with this plrun version")
		}
		rc, err := s.localFiles(ctx, n.Path)
		if err != nil {
			if _, ok := sqlerr.As(err); ok {
				return nil, err
			}
			return nil, sqlerr.New(errCantGetStat, "Can't get stat of '%s' (%s)", n.Path, errnoText(err))
		}
		defer rc.Close()
		data, err := io.ReadAll(rc)
		if err != nil {
			return nil, err
		}
		return data, membudget.From(ctx).Grow(int64(len(data)))
	}
	path, err := s.database.serverFilePath(n.Path, "LOAD DATA INFILE")
	if err != nil {
		return nil, err
	}
	// The file is read whole: it counts against the statement's memory
	// (plrun_max_statement_memory) before it is read.
	if fi, err := os.Stat(path); err == nil {
		if err := membudget.From(ctx).Grow(fi.Size()); err != nil {
			return nil, err
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, sqlerr.New(errCantGetStat, "Can't get stat of '%s' (%s)", n.Path, errnoText(err))
	}
	return data, nil
}

// errnoText is MariaDB's (Errcode: 2 "No such file or directory").
func errnoText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	code := 0
	if errors.Is(err, fs.ErrNotExist) {
		code = 2
	} else if errors.Is(err, fs.ErrPermission) {
		code = 13
	}
	msg := err.Error()
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	return fmt.Sprintf("Errcode: %d \"%s\"", code, msg)
}

// loadFormat reads LOAD DATA's FIELDS and LINES options over MySQL's
// defaults.
func loadFormat(n *ast.LoadDataStmt) (parse.FileFormat, error) {
	f := parse.DefaultFileFormat()
	if fi := n.FieldsInfo; fi != nil {
		if fi.Terminated != nil {
			f.FieldsTerminated = *fi.Terminated
		}
		if fi.Enclosed != nil {
			f.Enclosed, f.OptEnclosed = *fi.Enclosed, fi.OptEnclosed
		}
		if fi.Escaped != nil {
			f.Escaped = *fi.Escaped
		}
		if fi.DefinedNullBy != nil {
			return f, sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near 'DEFINED NULL BY' at line 1")
		}
	}
	if li := n.LinesInfo; li != nil {
		if li.Starting != nil {
			f.LinesStarting = *li.Starting
		}
		if li.Terminated != nil {
			f.LinesTerminated = *li.Terminated
		}
	}
	if len(f.Enclosed) > 1 || len(f.Escaped) > 1 {
		return f, sqlerr.New(sqlerr.ErWrongFieldTerminators, "Field separator argument is not what is expected; check the manual")
	}
	if n.Format != nil || len(n.Options) > 0 {
		return f, sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near 'FORMAT' at line 1")
	}
	return f, checkFileFormat(f, false)
}

// toUTF8 converts a file in charset cs to plrun's utf8mb4.
func toUTF8(data []byte, cs string) ([]byte, error) {
	switch strings.ToLower(cs) {
	case "utf8", "utf8mb3", "utf8mb4", "binary", "ascii":
		return data, nil
	case "latin1":
		if utf8.Valid(data) && !hasHighBytes(data) {
			return data, nil
		}
		out := make([]byte, 0, len(data)+len(data)/8)
		for _, b := range data {
			out = utf8.AppendRune(out, rune(b))
		}
		return out, nil
	}
	return nil, sqlerr.New(sqlerr.ErUnknownCharacterSet, "Unknown character set: '%s'", cs)
}

func hasHighBytes(data []byte) bool {
	for _, b := range data {
		if b >= 0x80 {
			return true
		}
	}
	return false
}

func quoteIdent(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// restoreExpr prints a SET expression of LOAD DATA back as SQL.
func restoreExpr(e ast.ExprNode) (string, error) {
	var sb strings.Builder
	flags := format.RestoreStringSingleQuotes | format.RestoreNameBackQuotes | format.RestoreStringEscapeBackslash
	if err := e.Restore(format.NewRestoreCtx(flags, &sb)); err != nil {
		return "", err
	}
	return sb.String(), nil
}
