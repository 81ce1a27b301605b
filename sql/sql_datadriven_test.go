package sql_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"

	"github.com/cockroachdb/datadriven"
	"github.com/plrun/plrun/sql"
)

// The scripts under testdata/sql run against a fresh engine each, with
// MariaDB 10.11 as the reference for every expected output. Commands:
//
//	exec [session=NAME]         one or more statements; each prints its
//	                            result (OK line, info, or a result set) or
//	                            its error, and execution goes on after an
//	                            error (like mysql --force).
//	query [session=NAME] [types] one statement that returns rows: column
//	                            names then rows, tab-separated; "types"
//	                            adds a line with the column types.
//	exec-args args=(1,'x',NULL) one statement with ? placeholders.
//	restart                     close the engine and reopen the same dir.
//	login [session=NAME] user=U from=HOST
//	                            make the session run as the account a
//	                            server login of U from HOST matches (no
//	                            password check), as the server does.
//	file name=F                 print file F of the script's file folder
//	                            ($FILES in statements, for INTO OUTFILE and
//	                            LOAD DATA), a Go-quoted line per line;
//	                            "write name=F" writes the input there (a
//	                            Go-quoted string: exactly its bytes).
//
// Sessions are opened on first use; the default one is "a".
func TestSQLScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "sql", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			h := newHarness(t, t.TempDir())
			defer h.close()
			datadriven.RunTest(t, f, h.run)
		})
	}
}

type harness struct {
	t        testing.TB
	dir      string
	e        *engine.Engine
	sessions map[string]*sql.Session
}

func newHarness(t testing.TB, dir string) *harness {
	h := &harness{t: t, dir: dir}
	h.open()
	return h
}

func (h *harness) open() {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: h.dir})
	if err != nil {
		h.t.Fatalf("open: %v", err)
	}
	h.e = e
	h.sessions = map[string]*sql.Session{}
}

// files is the folder $FILES names in a script, made on first use.
func (h *harness) files() string {
	dir := filepath.Join(filepath.Dir(h.dir), "files") // beside the data folder, which holds only the database
	if err := os.MkdirAll(dir, 0o755); err != nil {
		h.t.Fatal(err)
	}
	return dir
}

func (h *harness) withFiles(q string) string {
	if !strings.Contains(q, "$FILES") {
		return q
	}
	return strings.ReplaceAll(q, "$FILES", h.files())
}

func (h *harness) close() {
	for _, s := range h.sessions {
		s.Close()
	}
	if err := h.e.Close(); err != nil {
		h.t.Errorf("close: %v", err)
	}
}

func (h *harness) session(d *datadriven.TestData) *sql.Session {
	name := "a"
	if d.HasArg("session") {
		d.ScanArgs(h.t.(*testing.T), "session", &name)
	}
	s := h.sessions[name]
	if s == nil {
		s = h.e.NewSession()
		h.sessions[name] = s
	}
	return s
}

func (h *harness) run(t *testing.T, d *datadriven.TestData) string {
	ctx := context.Background()
	switch d.Cmd {
	case "file":
		var name string
		d.ScanArgs(t, "name", &name)
		data, err := os.ReadFile(filepath.Join(h.files(), name))
		if err != nil {
			return "no file: " + name + "\n"
		}
		var b strings.Builder
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if line != "" {
				b.WriteString(strconv.Quote(line) + "\n")
			}
		}
		return b.String()
	case "write":
		var name string
		d.ScanArgs(t, "name", &name)
		content := d.Input + "\n"
		if strings.HasPrefix(d.Input, `"`) {
			// A Go-quoted string: the bytes exactly (tabs, \r, no last newline).
			q, err := strconv.Unquote(d.Input)
			if err != nil {
				t.Fatalf("%s: %v", d.Pos, err)
			}
			content = q
		}
		if err := os.WriteFile(filepath.Join(h.files(), name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return "ok\n"
	case "exec":
		s := h.session(d)
		stmts, rest := parse.SplitStatements(h.withFiles(d.Input))
		if strings.TrimSpace(rest) != "" {
			stmts = append(stmts, rest)
		}
		var b strings.Builder
		for _, q := range stmts {
			r, err := s.Exec(ctx, q, nil)
			b.WriteString(render(r, err, false))
		}
		return strings.ReplaceAll(b.String(), h.files(), "$FILES")
	case "query":
		s := h.session(d)
		r, err := s.Exec(ctx, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(d.Input), ";")), nil)
		if err == nil && !r.IsResultSet() {
			t.Fatalf("%s: query did not return rows; use exec", d.Pos)
		}
		return render(r, err, d.HasArg("types"))
	case "exec-args":
		s := h.session(d)
		var args []any
		for _, a := range d.CmdArgs {
			if a.Key != "args" {
				continue
			}
			for _, v := range a.Vals {
				args = append(args, parseArg(v))
			}
		}
		r, err := s.Exec(ctx, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(d.Input), ";")), args)
		return render(r, err, false)
	case "login":
		s := h.session(d)
		var user, from string
		d.ScanArgs(t, "user", &user)
		d.ScanArgs(t, "from", &from)
		a := h.e.Accounts().Current().MatchLogin(user, from)
		if a == nil {
			return "no account matches\n"
		}
		s.SetClient(user, from)
		s.SetAccount(h.e.Accounts().GrantsFor(a.User, a.Host))
		return fmt.Sprintf("logged in as '%s'@'%s'\n", a.User, a.Host)
	case "restart":
		h.close()
		h.open()
		return "ok\n"
	}
	t.Fatalf("%s: unknown command %q", d.Pos, d.Cmd)
	return ""
}

func parseArg(v string) any {
	v = strings.TrimSpace(v)
	switch {
	case strings.EqualFold(v, "NULL"):
		return nil
	case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
		return v[1 : len(v)-1]
	}
	if i, err := strconv.ParseInt(v, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	return v
}

// render prints a result the way the mysql client reports it in batch mode
// (result sets tab-separated), plus the OK line and info for the others.
func render(r *exec.Result, err error, withTypes bool) string {
	if err != nil {
		return err.Error() + "\n"
	}
	var b strings.Builder
	// A CALL's result sets print before its OK, each ending in a blank
	// line, as the mysql client separates them.
	for _, set := range r.Sets {
		b.WriteString(render(set, nil, withTypes) + "\n")
	}
	if r.IsResultSet() {
		names := make([]string, len(r.Columns))
		tys := make([]string, len(r.Columns))
		for i, c := range r.Columns {
			names[i] = c.Name
			tys[i] = c.Type.SQL()
		}
		b.WriteString(strings.Join(names, "\t") + "\n")
		if withTypes {
			b.WriteString("-- " + strings.Join(tys, "\t") + "\n")
		}
		for _, row := range r.Rows {
			vals := make([]string, len(row))
			for i, v := range row {
				vals[i] = v.String()
				if c := r.Columns[i].Name; (c == "Created" || c == "Modified" || c == "Create_time" || c == "Update_time") && !v.IsNull() {
					vals[i] = "·" // SHOW PROCEDURE/FUNCTION/TABLE STATUS: the time it ran
				}
			}
			b.WriteString(strings.Join(vals, "\t") + "\n")
		}
		return b.String()
	}
	rows := "rows"
	if r.AffectedRows == 1 {
		rows = "row"
	}
	fmt.Fprintf(&b, "OK, %d %s affected", r.AffectedRows, rows)
	if r.Warnings > 0 {
		fmt.Fprintf(&b, ", %d warning(s)", r.Warnings)
	}
	b.WriteString("\n")
	if r.Info != "" {
		b.WriteString(r.Info + "\n")
	}
	return b.String()
}

// FuzzSQL runs random statement text, seeded with every statement of the
// scripts, against one engine. Errors are fine; a panic fails the test
// (nothing recovers it).
func FuzzSQL(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "sql", "*.txt"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, block := range strings.Split(string(data), "\n----\n") {
			lines := strings.Split(block, "\n")
			// a block's input follows its command line; keep the lines
			// that are not a command, a comment or expected output
			var in []string
			started := false
			for _, l := range lines {
				if !started {
					if strings.HasPrefix(l, "exec") || strings.HasPrefix(l, "query") {
						started = true
					}
					continue
				}
				in = append(in, l)
			}
			if len(in) > 0 {
				stmts, rest := parse.SplitStatements(strings.Join(in, "\n"))
				if strings.TrimSpace(rest) != "" {
					stmts = append(stmts, rest)
				}
				for _, q := range stmts {
					f.Add(q)
				}
			}
		}
	}
	f.Add("select 1")
	f.Add("update sbtest1 set k=k+1 where id=1")
	dir := f.TempDir()
	// A statement may wait for a row lock another input left (errors are
	// fine here, time is not): wait 1 s, not 50.
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Settings: map[string]string{"innodb_lock_wait_timeout": "1", "max_execution_time": "2000"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { e.Close() })
	setup := e.NewSession()
	for _, q := range []string{
		"CREATE TABLE sbtest1 (id int(11) NOT NULL AUTO_INCREMENT, k int(11) NOT NULL DEFAULT '0', c char(120) NOT NULL DEFAULT '', pad char(60) NOT NULL DEFAULT '', PRIMARY KEY (id))",
		"INSERT INTO sbtest1 (k, c, pad) VALUES (1,'a','x'),(2,'b','y'),(3,'c','z')",
		"CREATE TABLE t (a INT UNSIGNED, b DECIMAL(10,2), c VARCHAR(10), d DOUBLE, e DATETIME, KEY(a))",
		"INSERT INTO t VALUES (1, 1.50, 'x', 0.5, '2024-01-02 03:04:05'), (NULL, NULL, NULL, NULL, NULL)",
	} {
		if _, err := setup.Exec(context.Background(), q, nil); err != nil {
			f.Fatalf("%s: %v", q, err)
		}
	}
	setup.Close()
	f.Fuzz(func(t *testing.T, q string) {
		s := e.NewSession()
		defer s.Close()
		ctx := context.Background()
		r, err := s.Exec(ctx, q, nil)
		if err == nil && r == nil {
			t.Fatalf("%q: nil result and nil error", q)
		}
		// Whatever state the statement left, the session must still work.
		if _, err := s.Exec(ctx, "ROLLBACK", nil); err != nil {
			t.Fatalf("%q: ROLLBACK after it failed: %v", q, err)
		}
	})
}
