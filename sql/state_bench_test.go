package sql_test

import (
	"context"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
)

// BenchmarkPointUpdate is one session's autocommit point UPDATE, the
// statement whose PROCESSLIST State changes most often (executing, then
// idle): its allocations must not grow with the state reporting. The log
// does not sync (innodb_flush_log_at_trx_commit=0), so the figure is the
// engine's own work.
func BenchmarkPointUpdate(b *testing.B) {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: b.TempDir(),
		Settings: map[string]string{"innodb_flush_log_at_trx_commit": "0"}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession()
	defer s.Close()
	mustExec(b, s, "create table sbtest1 (id int primary key, k int not null default 0)")
	mustExec(b, s, "insert into sbtest1 values (1, 0)")
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Exec(ctx, "update sbtest1 set k=k+1 where id=1", nil); err != nil {
			b.Fatal(err)
		}
	}
}
