package sql_test

import (
	"context"
	"testing"
	"time"
)

// BenchmarkTriggerInsert is, per op, one INSERT into a table with a
// BEFORE INSERT trigger (SET NEW.b = NEW.a * 2), one into a table with an
// AFTER INSERT trigger that inserts into a log table, and one into a
// table without triggers, back to back in transactions of 1000 rows (the
// log's sync is not measured). It reports the three ns/row and the
// trigger tables' ratios to the plain one.
//
//	go test ./sql -run XXX -bench TriggerInsert -benchmem -count 5
func BenchmarkTriggerInsert(b *testing.B) {
	_, s := newHostileSession(b)
	mustExec(b, s, "CREATE TABLE t_set (a INT PRIMARY KEY, b INT)")
	mustExec(b, s, "CREATE TABLE t_log (a INT PRIMARY KEY, b INT)")
	mustExec(b, s, "CREATE TABLE t_plain (a INT PRIMARY KEY, b INT)")
	mustExec(b, s, "CREATE TABLE lg (a INT)")
	mustExec(b, s, "CREATE TRIGGER t_set_bi BEFORE INSERT ON t_set FOR EACH ROW SET NEW.b = NEW.a * 2")
	mustExec(b, s, "CREATE TRIGGER t_log_ai AFTER INSERT ON t_log FOR EACH ROW INSERT INTO lg VALUES (NEW.a)")
	ctx := context.Background()
	var set, logged, plain time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	mustExec(b, s, "BEGIN")
	for i := 0; i < b.N; i++ {
		args := []any{i}
		t0 := time.Now()
		if _, err := s.Exec(ctx, "INSERT INTO t_set (a) VALUES (?)", args); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := s.Exec(ctx, "INSERT INTO t_log (a) VALUES (?)", args); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if _, err := s.Exec(ctx, "INSERT INTO t_plain (a) VALUES (?)", args); err != nil {
			b.Fatal(err)
		}
		set += t1.Sub(t0)
		logged += t2.Sub(t1)
		plain += time.Since(t2)
		if i%1000 == 999 {
			mustExec(b, s, "COMMIT")
			mustExec(b, s, "BEGIN")
		}
	}
	mustExec(b, s, "COMMIT")
	n := float64(b.N)
	b.ReportMetric(float64(set.Nanoseconds())/n, "set-ns/row")
	b.ReportMetric(float64(logged.Nanoseconds())/n, "log-ns/row")
	b.ReportMetric(float64(plain.Nanoseconds())/n, "plain-ns/row")
	b.ReportMetric(float64(set)/float64(plain), "set-x")
	b.ReportMetric(float64(logged)/float64(plain), "log-x")
}
