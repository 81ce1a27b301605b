package dataio

import (
	"bufio"
	"context"
	"os"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// errWarnDeprecatedSyntax is MariaDB's note on INTO after FROM.
const errWarnDeprecatedSyntax uint16 = 1287

// SelectInto is SELECT ... INTO OUTFILE / INTO DUMPFILE: the rows go to
// a new file on the server (never an existing one: 1086), bounded by
// secure_file_priv; the reply is an OK counting them, as in MariaDB.
func SelectInto(ctx context.Context, h Host, p *parse.Stmt, n *ast.SelectStmt, args []types.Value) (*exec.Result, uint64, error) {
	into := p.Into
	if err := checkFileFormat(into.Format, into.Dump); err != nil {
		return nil, 0, err
	}
	path, err := serverFilePath(h, into.Path, "INTO OUTFILE")
	if err != nil {
		return nil, 0, err
	}
	res, ack, err := h.RunDML(ctx, p, args, func(x *txn.Txn) (*exec.Result, error) { return h.Statement().ExecSelect(ctx, x, p, n, args) })
	if err != nil {
		return nil, ack, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, ack, fileError(err, into.Path)
	}
	w := bufio.NewWriter(f)
	if into.Dump {
		writeDumpRows(w, res)
	} else {
		writeOutfileRows(w, res, into.Format)
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, ack, fileError(err, into.Path)
	}
	out := &exec.Result{AffectedRows: uint64(len(res.Rows)), Notes: res.Notes, Warnings: res.Warnings}
	if into.Trailing {
		out.Notes = append(out.Notes, exec.Note{Level: "Warning", Code: errWarnDeprecatedSyntax,
			Message: "'<select expression> INTO <destination>;' is deprecated and will be removed in a future release. Please use 'SELECT <select list> INTO <destination> FROM...' instead"})
		out.Warnings++
	}
	return out, ack, nil
}

// checkFileFormat refuses what plrun does not do: fixed-size rows (MySQL's
// mode when FIELDS TERMINATED BY and ENCLOSED BY are both empty).
func checkFileFormat(f parse.FileFormat, dump bool) error {
	if !dump && f.FieldsTerminated == "" && f.Enclosed == "" {
		return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support 'fixed-size rows (FIELDS TERMINATED BY '' and ENCLOSED BY '')'")
	}
	return nil
}

// fileText is a value as INTO OUTFILE writes it: the text protocol's form.
func fileText(t types.ColType, v types.Value) string {
	if v.K == types.KindTime {
		switch t.Base {
		case types.TDate:
			return v.Time().Format(time.DateOnly)
		case types.TDatetime, types.TTimestamp:
			return types.FormatTime(v.Time(), t.Scale)
		}
	}
	return v.String()
}

// writeOutfileRows writes rows as MySQL's select_export does: NULL as
// \N (NULL when there is no escape character), a field enclosed unless
// OPTIONALLY and numeric, and the escape character before itself, the
// enclosing character (or, unenclosed, the field terminator's first
// byte), the line terminator's first byte and NUL (as "0").
func writeOutfileRows(w *bufio.Writer, res *exec.Result, f parse.FileFormat) {
	var esc, encl, fieldTerm, lineTerm int = -1, -1, -1, -1
	if f.Escaped != "" {
		esc = int(f.Escaped[0])
	}
	if f.Enclosed != "" {
		encl = int(f.Enclosed[0])
	}
	if f.FieldsTerminated != "" {
		fieldTerm = int(f.FieldsTerminated[0])
	}
	if f.LinesTerminated != "" {
		lineTerm = int(f.LinesTerminated[0])
	}
	for _, row := range res.Rows {
		w.WriteString(f.LinesStarting)
		for i, v := range row {
			if i > 0 {
				w.WriteString(f.FieldsTerminated)
			}
			if v.IsNull() {
				if esc >= 0 {
					w.WriteByte(byte(esc))
					w.WriteByte('N')
				} else {
					w.WriteString("NULL")
				}
				continue
			}
			t := res.Columns[i].Type
			enclose := encl >= 0 && (!f.OptEnclosed || !isNumericType(t))
			if enclose {
				w.WriteByte(byte(encl))
			}
			text := fileText(t, v)
			for j := 0; j < len(text); j++ {
				c := int(text[j])
				if esc >= 0 && (c == esc || (enclose && c == encl) || (!enclose && c == fieldTerm) || c == lineTerm || c == 0) {
					w.WriteByte(byte(esc))
					if c == 0 {
						w.WriteByte('0')
						continue
					}
				}
				w.WriteByte(byte(c))
			}
			if enclose {
				w.WriteByte(byte(encl))
			}
		}
		w.WriteString(f.LinesTerminated)
	}
}

// writeDumpRows writes INTO DUMPFILE's raw bytes: every value of every
// row, one after another, NULL as a NUL byte (MariaDB 10.11 writes all
// rows, where MySQL refuses more than one).
func writeDumpRows(w *bufio.Writer, res *exec.Result) {
	for _, row := range res.Rows {
		for i, v := range row {
			if v.IsNull() {
				w.WriteByte(0)
				continue
			}
			w.WriteString(fileText(res.Columns[i].Type, v))
		}
	}
}

func isNumericType(t types.ColType) bool {
	return t.IsInteger() || t.Base == types.TDecimal || t.Base == types.TFloat || t.Base == types.TDouble
}
