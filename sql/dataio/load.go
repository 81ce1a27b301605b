package dataio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/txn"
)

// errCantGetStat is MariaDB's error 13 (EE_STAT) for a missing file.
const errCantGetStat uint16 = 13

// Load is LOAD DATA [LOCAL] INFILE: each line of the file becomes a row
// inserted as INSERT would insert the fields as strings (the same
// conversions, warnings and strict-mode errors), in one statement: an
// error undoes every row (REPLACE / IGNORE decide duplicates; LOCAL
// implies IGNORE, as in MySQL, the file having been sent already).
func Load(ctx context.Context, h Host, p *parse.Stmt, n *ast.LoadDataStmt) (*exec.Result, uint64, error) {
	format, err := loadFormat(n)
	if err != nil {
		return nil, 0, err
	}
	data, err := readLoadFile(ctx, h, n)
	if err != nil {
		return nil, 0, err
	}
	// Without CHARACTER SET the file is in character_set_database, as in
	// MySQL (mariadb-import sets it to binary).
	cs := h.SysVar("character_set_database")
	if n.Charset != nil {
		cs = *n.Charset
	}
	if data, err = toUTF8(data, cs); err != nil {
		return nil, 0, err
	}
	l, err := newLoader(h, n)
	if err != nil {
		return nil, 0, err
	}
	r := newFieldReader(data, format)
	if n.IgnoreLines != nil {
		for i := uint64(0); i < *n.IgnoreLines; i++ {
			if _, ok := r.next(); !ok {
				break
			}
		}
	}
	return h.RunDML(ctx, p, nil, func(x *txn.Txn) (*exec.Result, error) { return l.run(ctx, x, r) })
}

// readLoadFile reads the whole file: from the client (LOCAL) or from the
// server's file system, bounded by secure_file_priv.
func readLoadFile(ctx context.Context, h Host, n *ast.LoadDataStmt) ([]byte, error) {
	if n.FileLocRef == ast.FileLocClient {
		open := h.LocalFiles()
		if open == nil {
			return nil, sqlerr.New(sqlerr.ErNotAllowedCommand, "The used command is not allowed with this plrun version")
		}
		rc, err := open(ctx, n.Path)
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
	path, err := serverFilePath(h, n.Path, "LOAD DATA INFILE")
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
