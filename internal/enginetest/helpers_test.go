package enginetest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

var soakFlag = flag.Bool("soak", false, "run the long forms of the crash tests (also PLRUN_SOAK=1)")

func soak() bool { return *soakFlag || os.Getenv("PLRUN_SOAK") == "1" }

// errCode is the MySQL error number of err, 0 if err is not an *sqlerr.Error.
func errCode(err error) uint16 {
	if e, ok := sqlerr.As(err); ok {
		return e.Code
	}
	return 0
}

// within runs fn and fails the test with every goroutine's stack if it has
// not returned after d: a hang is a bug, reported as such.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		var b strings.Builder
		pprof.Lookup("goroutine").WriteTo(&b, 2)
		t.Fatalf("%s did not finish within %v (hang); goroutines:\n%s", what, d, b.String())
	}
}

// sqlExec runs one statement on an sql.Session.
func sqlExec(ctx context.Context, s *sql.Session, q string, args ...any) (*sql.Result, error) {
	return s.Exec(ctx, q, args)
}

// mustSQL runs statements that must succeed.
func mustSQL(t testing.TB, s *sql.Session, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := s.Exec(context.Background(), q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// queryInt runs a query returning one integer (NULL is 0).
func queryInt(t testing.TB, s *sql.Session, q string, args ...any) int64 {
	t.Helper()
	r, err := s.Exec(context.Background(), q, args)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if len(r.Rows) != 1 || len(r.Rows[0]) != 1 {
		t.Fatalf("%s: want one value, got %d rows", q, len(r.Rows))
	}
	if r.Rows[0][0].IsNull() {
		return 0
	}
	var n int64
	if _, err := fmt.Sscan(r.Rows[0][0].String(), &n); err != nil {
		t.Fatalf("%s: %q is not an integer", q, r.Rows[0][0].String())
	}
	return n
}

// statusInt reads one SHOW GLOBAL STATUS counter.
func statusInt(t testing.TB, s *sql.Session, name string) int64 {
	t.Helper()
	r, err := s.Exec(context.Background(), "SHOW GLOBAL STATUS LIKE '"+name+"'", nil)
	if err != nil {
		t.Fatalf("status %s: %v", name, err)
	}
	if len(r.Rows) != 1 {
		t.Fatalf("status %s: %d rows", name, len(r.Rows))
	}
	var n int64
	fmt.Sscan(r.Rows[0][1].String(), &n)
	return n
}

var errInjected = errors.New("injected fault")
