package sql_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// TestProcScripts runs every script under testdata/procs twice, once with
// its procedures created in Lua and once in JavaScript, each time against a
// fresh engine in a new folder, and both runs must print the same expected
// output: the two runtimes behave identically on the real engine.
//
// Commands (the SQL harness's, see TestSQLScripts, plus procedures):
//
//	proc                        the input is a signature line
//	                            "PROCEDURE name(IN a INT, ...)" followed by a
//	                            "-- lua" section and a "-- js" section; the
//	                            run's section becomes the body of
//	                            CREATE OR REPLACE PROCEDURE ... LANGUAGE LUA|
//	                            JAVASCRIPT AS $$ body $$, sent as SQL. Prints
//	                            "ok" or the error as "ERROR code (state)".
//	exec [session=NAME] [codes] [match=RE]
//	                            statements, each result or error printed as
//	                            in the SQL harness. With codes, errors are
//	                            printed as "ERROR code (state)" only, for
//	                            errors whose message carries a language's own
//	                            wording (a Lua vs a JS runtime error); match
//	                            then requires every error's message to match
//	                            the regexp RE (so the message is still checked
//	                            to be clear, whatever the language).
//	query [session=NAME] [types]
//	                            one statement that returns rows (or a CALL
//	                            whose result sets print before its OK); with
//	                            types, each set's column types under its
//	                            header.
//	exec-async session=NAME     start the input's statements in a goroutine
//	                            on that session; prints "started".
//	wait session=NAME           wait for them and print their results.
//	wait-error [session=NAME]   run the input statement again and again (at
//	                            most 30 s) until it fails; print that error.
//	kill-query session=NAME     KILL QUERY <that session's id>, sent as SQL
//	                            from a session of its own.
//	status                      the changes of a few SHOW GLOBAL STATUS
//	                            counters since the last status command.
//	show-create name=P          SHOW CREATE PROCEDURE P, printed with the body
//	                            and language masked; checks the body is the
//	                            one created and that DROP + running the
//	                            printed text gives back the same definition.
//	restart                     close the engine and reopen the same folder.
//
// In inputs, $LANG is replaced by LUA or JAVASCRIPT and $lang by "lua" or
// "js" (the examples shipped in
// examples/procs are named transfer_lua, transfer_js, ...); in outputs each
// word so produced is turned back into its $lang form, and a result cell
// that is the run's language name (SHOW PROCEDURE STATUS) prints as $LANG.
func TestProcScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "procs", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			for _, lang := range []string{"lua", "js"} {
				t.Run(lang, func(t *testing.T) {
					h := &procHarness{harness: newHarness(t, t.TempDir()), lang: lang,
						async: map[string]chan string{}, status: map[string]int64{}}
					defer h.close()
					datadriven.RunTest(t, f, h.run)
				})
			}
		})
	}
}

type procHarness struct {
	*harness
	lang   string
	async  map[string]chan string // session name -> its exec-async output
	status map[string]int64
	bodies map[string]string // procedure name -> body created
}

func (h *procHarness) language() string {
	if h.lang == "lua" {
		return "LUA"
	}
	return "JAVASCRIPT"
}

func (h *procHarness) close() {
	for name, ch := range h.async {
		h.t.Errorf("exec-async session=%s never waited for", name)
		<-ch
	}
	h.async = map[string]chan string{}
	h.harness.close()
}

var langWord = regexp.MustCompile(`\w*\$lang\w*`)

// expand substitutes $lang in in and returns the reverse replacer for the
// output.
func (h *procHarness) expand(in string) (string, *strings.Replacer) {
	var pairs []string
	seen := map[string]bool{}
	for _, w := range langWord.FindAllString(in, -1) {
		x := strings.ReplaceAll(w, "$lang", h.lang)
		if !seen[x] {
			seen[x] = true
			pairs = append(pairs, x, w)
		}
	}
	in = strings.ReplaceAll(in, "$LANG", h.language())
	return strings.ReplaceAll(in, "$lang", h.lang), strings.NewReplacer(pairs...)
}

func statements(in string) []string {
	stmts, rest := parse.SplitStatements(in)
	if strings.TrimSpace(rest) != "" {
		stmts = append(stmts, rest)
	}
	return stmts
}

func trimStmt(in string) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(in), ";"))
}

var checkpointLSN = regexp.MustCompile(`^Checkpoint at LSN \d+$`)

// renderProc is render with what differs from run to run masked: the run's
// language name in result sets, the Created and Modified columns (SHOW
// PROCEDURE STATUS) and CHECKPOINT's LSN print as "·".
func (h *procHarness) renderProc(r *exec.Result, err error) string {
	return h.renderProcTypes(r, err, false)
}

// renderProcTypes is renderProc, with each set's column types under its
// header when withTypes.
func (h *procHarness) renderProcTypes(r *exec.Result, err error, withTypes bool) string {
	if err == nil {
		for _, set := range r.Sets {
			h.mask(set)
		}
		h.mask(r)
	}
	if err == nil && checkpointLSN.MatchString(r.Info) {
		r.Info = "Checkpoint at LSN ·"
	}
	return render(r, err, withTypes)
}

func (h *procHarness) mask(r *exec.Result) {
	if r.IsResultSet() {
		for _, row := range r.Rows {
			for i, v := range row {
				switch {
				case v.K == types.KindNull:
				case v.String() == h.language():
					row[i] = types.StringValue("$LANG")
				case r.Columns[i].Name == "Created" || r.Columns[i].Name == "Modified":
					row[i] = types.StringValue("·")
				}
			}
		}
	}
}

func codeOnly(err error) string {
	if e, ok := sqlerr.As(err); ok {
		return fmt.Sprintf("ERROR %d (%s)\n", e.Code, e.State)
	}
	return fmt.Sprintf("not an SQL error: %T %v\n", err, err)
}

func (h *procHarness) run(t *testing.T, d *datadriven.TestData) string {
	input, back := h.expand(d.Input)
	return back.Replace(h.run1(t, d, input))
}

func (h *procHarness) run1(t *testing.T, d *datadriven.TestData, input string) string {
	ctx := context.Background()
	switch d.Cmd {
	case "proc":
		return h.createProc(t, d, input)
	case "exec":
		s := h.session(d)
		var match *regexp.Regexp
		if d.HasArg("match") {
			var re string
			d.ScanArgs(t, "match", &re)
			match = regexp.MustCompile(re)
		}
		var b strings.Builder
		for _, q := range statements(input) {
			r, err := s.Exec(ctx, q, nil)
			switch {
			case err != nil && d.HasArg("codes"):
				if match != nil && !match.MatchString(err.Error()) {
					t.Errorf("%s: %q: error %q does not match %q", d.Pos, q, err, match)
				}
				b.WriteString(codeOnly(err))
			default:
				b.WriteString(h.renderProc(r, err))
			}
		}
		return b.String()
	case "query":
		s := h.session(d)
		r, err := s.Exec(ctx, trimStmt(input), nil)
		if err == nil && !r.IsResultSet() && len(r.Sets) == 0 {
			t.Fatalf("%s: query did not return rows; use exec", d.Pos)
		}
		return h.renderProcTypes(r, err, d.HasArg("types"))
	case "exec-async":
		name := sessionName(t, d)
		if h.async[name] != nil {
			t.Fatalf("%s: session %s already runs something", d.Pos, name)
		}
		s := h.session(d)
		ch := make(chan string, 1)
		h.async[name] = ch
		stmts := statements(input)
		go func() {
			var b strings.Builder
			for _, q := range stmts {
				r, err := s.Exec(ctx, q, nil)
				b.WriteString(h.renderProc(r, err))
			}
			ch <- b.String()
		}()
		return "started\n"
	case "wait":
		name := sessionName(t, d)
		ch := h.async[name]
		if ch == nil {
			t.Fatalf("%s: nothing runs on session %s", d.Pos, name)
		}
		delete(h.async, name)
		select {
		case out := <-ch:
			return out
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: session %s still running after 30 s", d.Pos, name)
		}
	case "wait-error":
		s := h.session(d)
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := s.Exec(ctx, trimStmt(input), nil); err != nil {
				return render(nil, err, false)
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("%s: statement never failed", d.Pos)
	case "kill-query":
		target := h.session(d)
		killer := h.sessions["killer"]
		if killer == nil {
			killer = h.e.NewSession()
			h.sessions["killer"] = killer
		}
		r, err := killer.Exec(ctx, fmt.Sprintf("KILL QUERY %d", target.ID()), nil)
		return render(r, err, false)
	case "status":
		return h.statusDelta(t)
	case "show-create":
		return h.showCreate(t, d)
	case "restart":
		if len(h.async) > 0 {
			t.Fatalf("%s: restart while exec-async runs", d.Pos)
		}
		h.harness.close()
		h.open()
		return "ok\n"
	}
	t.Fatalf("%s: unknown command %q", d.Pos, d.Cmd)
	return ""
}

func sessionName(t *testing.T, d *datadriven.TestData) string {
	name := "a"
	if d.HasArg("session") {
		d.ScanArgs(t, "session", &name)
	}
	return name
}

var procSig = regexp.MustCompile(`(?is)^\s*PROCEDURE\s+([\w$]+)\s*\(`)

// createProc turns a proc command into CREATE OR REPLACE PROCEDURE for the
// run's language and executes it as SQL.
func (h *procHarness) createProc(t *testing.T, d *datadriven.TestData, input string) string {
	lines := strings.Split(input, "\n")
	sig := lines[0]
	m := procSig.FindStringSubmatch(sig)
	if m == nil {
		t.Fatalf("%s: proc: first line must be PROCEDURE name(...), got %q", d.Pos, sig)
	}
	sections := map[string][]string{}
	cur := ""
	for _, l := range lines[1:] {
		if tl := strings.TrimSpace(l); tl == "-- lua" || tl == "-- js" {
			cur = strings.TrimPrefix(tl, "-- ")
			if _, dup := sections[cur]; dup {
				t.Fatalf("%s: proc: two %q sections", d.Pos, tl)
			}
			sections[cur] = []string{}
			continue
		}
		if cur == "" {
			if strings.TrimSpace(l) != "" {
				t.Fatalf("%s: proc: text before the first -- lua / -- js line: %q", d.Pos, l)
			}
			continue
		}
		sections[cur] = append(sections[cur], l)
	}
	for _, l := range []string{"lua", "js"} {
		if _, ok := sections[l]; !ok {
			t.Fatalf("%s: proc: no -- %s section", d.Pos, l)
		}
	}
	body := strings.Join(sections[h.lang], "\n")
	stmt := fmt.Sprintf("CREATE OR REPLACE %s LANGUAGE %s AS $$%s\n$$", strings.TrimSpace(sig), h.language(), body)
	_, err := h.session(d).Exec(context.Background(), stmt, nil)
	if err != nil {
		return codeOnly(err)
	}
	if h.bodies == nil {
		h.bodies = map[string]string{}
	}
	h.bodies[strings.ToLower(m[1])] = body + "\n"
	return "ok\n"
}

var statusCounters = []string{"Elr_early_releases", "Elr_reader_waits", "Plrun_commits", "Plrun_rollbacks"}

// statusDelta prints how much each of statusCounters grew since the last
// call (or since the engine opened).
func (h *procHarness) statusDelta(t *testing.T) string {
	s := h.e.NewSession()
	defer s.Close()
	r, err := s.Exec(context.Background(), "SHOW GLOBAL STATUS", nil)
	if err != nil {
		t.Fatalf("SHOW GLOBAL STATUS: %v", err)
	}
	cur := map[string]int64{}
	for _, row := range r.Rows {
		n, err := strconv.ParseInt(row[1].String(), 10, 64)
		if err == nil {
			cur[row[0].String()] = n
		}
	}
	var b strings.Builder
	names := append([]string(nil), statusCounters...)
	sort.Strings(names)
	for _, n := range names {
		v, ok := cur[n]
		if !ok {
			t.Fatalf("no status counter %s", n)
		}
		fmt.Fprintf(&b, "%s +%d\n", n, v-h.status[n])
		h.status[n] = v
	}
	return b.String()
}

// showCreate prints SHOW CREATE PROCEDURE with the body and language masked
// and checks that the text round-trips.
func (h *procHarness) showCreate(t *testing.T, d *datadriven.TestData) string {
	var name string
	d.ScanArgs(t, "name", &name)
	s := h.session(d)
	ctx := context.Background()
	show := func() (string, error) {
		r, err := s.Exec(ctx, "SHOW CREATE PROCEDURE "+name, nil)
		if err != nil {
			return "", err
		}
		if len(r.Rows) != 1 || len(r.Columns) < 3 || r.Columns[2].Name != "Create Procedure" {
			t.Fatalf("%s: SHOW CREATE PROCEDURE %s: unexpected result %s", d.Pos, name, render(r, nil, false))
		}
		return r.Rows[0][2].String(), nil
	}
	text, err := show()
	if err != nil {
		return render(nil, err, false)
	}
	if _, err := s.Exec(ctx, "DROP PROCEDURE "+name, nil); err != nil {
		t.Fatalf("%s: DROP PROCEDURE %s: %v", d.Pos, name, err)
	}
	if _, err := s.Exec(ctx, text, nil); err != nil {
		t.Fatalf("%s: running SHOW CREATE PROCEDURE's text: %v\n%s", d.Pos, err, text)
	}
	again, err := show()
	if err != nil {
		t.Fatalf("%s: SHOW CREATE PROCEDURE %s after re-creating it: %v", d.Pos, name, err)
	}
	if again != text {
		t.Errorf("%s: SHOW CREATE PROCEDURE %s does not round-trip:\n%s\n-- became --\n%s", d.Pos, name, text, again)
	}
	i := strings.Index(text, "$$")
	j := strings.LastIndex(text, "$$")
	if i < 0 || j <= i {
		t.Fatalf("%s: no $$ body in %q", d.Pos, text)
	}
	body := text[i+2 : j]
	if want, ok := h.bodies[strings.ToLower(name)]; ok && body != want {
		t.Errorf("%s: SHOW CREATE PROCEDURE %s body is\n%q\nwant the one created:\n%q", d.Pos, name, body, want)
	}
	masked := text[:i] + "$$<body>$$" + text[j+2:]
	masked = strings.Replace(masked, "LANGUAGE "+h.language(), "LANGUAGE $LANG", 1)
	return masked + "\n"
}
