package sql_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sqlerr"
)

// TestDenialLogged: a refused statement is logged at WARN with the
// account, the statement kind and the object, never the statement's
// literals.
func TestDenialLogged(t *testing.T) {
	var log bytes.Buffer
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	op := e.NewSession()
	defer op.Close()
	mustExec(t, op, "CREATE TABLE t (a varchar(20))")
	s := limitedSession(t, e, op, "u")
	s.SetClient("u", "10.0.0.7:5555")
	_, err = s.Exec(context.Background(), "SELECT * FROM t WHERE a = 'LITERAL-77'", nil)
	if se, ok := sqlerr.As(err); !ok || se.Code != sqlerr.ErTableAccessDenied {
		t.Fatalf("got %v, want 1142", err)
	}
	if !strings.Contains(err.Error(), "'u'@'10.0.0.7'") {
		t.Errorf("1142 names the client host without its port: %v", err)
	}
	line := log.String()
	for _, want := range []string{"level=WARN", "access denied", "user=u", `host=%`, "statement=select", "object=test.t", "missing=SELECT", "code=1142"} {
		if !strings.Contains(line, want) {
			t.Errorf("log line lacks %q:\n%s", want, line)
		}
	}
	if strings.Contains(line, "LITERAL-77") {
		t.Errorf("the log holds the statement's literal:\n%s", line)
	}
}

// TestProcesslistAndKill: without PROCESS an account sees only its own
// sessions; without SUPER it cannot KILL another account's (1095).
func TestProcesslistAndKill(t *testing.T) {
	ctx := context.Background()
	e, op := newHostileSession(t)
	op.SetClient("root", "localhost:1")
	s := limitedSession(t, e, op, "u")
	users := func() string {
		r, err := s.Exec(ctx, "SHOW PROCESSLIST", nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, row := range r.Rows {
			out = append(out, row[1].String())
		}
		r, err = s.Exec(ctx, "SELECT USER FROM information_schema.PROCESSLIST ORDER BY ID", nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, "|")
		for _, row := range r.Rows {
			out = append(out, row[0].String())
		}
		return strings.Join(out, ",")
	}
	if got := users(); got != "u,|,u" {
		t.Errorf("without PROCESS: %s", got)
	}
	kill := fmt.Sprintf("KILL QUERY %d", op.ID())
	_, err := s.Exec(ctx, kill, nil)
	if se, ok := sqlerr.As(err); !ok || se.Code != sqlerr.ErKillDenied || se.Message != fmt.Sprintf("You are not owner of thread %d", op.ID()) {
		t.Errorf("KILL of another account's session: %v", err)
	}
	if _, err := s.Exec(ctx, fmt.Sprintf("KILL QUERY %d", s.ID()), nil); err != nil {
		t.Errorf("KILL QUERY of its own session: %v", err)
	}
	mustExec(t, op, "GRANT PROCESS ON *.* TO u@'%'")
	if got := users(); got != "root,u,|,root,u" {
		t.Errorf("with PROCESS: %s", got)
	}
	mustExec(t, op, "REVOKE ALL PRIVILEGES, GRANT OPTION FROM u@'%'")
	mustExec(t, op, "GRANT SUPER ON *.* TO u@'%'")
	if _, err := s.Exec(ctx, kill, nil); err != nil {
		t.Errorf("KILL with SUPER: %v", err)
	}
}
