package sql_test

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// BenchmarkInsertChild is, per op, one INSERT of a child row (pid among
// 1000 parents) into a table with the FOREIGN KEY (each row costs a point
// lookup and lock of its parent) and one into the same table without it
// (plain KEY on pid), in transactions of 1000 inserts so the log's sync is
// not what is measured. The two inserts of an op run back to back, so the
// ratio is measured under the same load on a shared machine: it reports
// fk-ns/row, plain-ns/row and fk-x (their ratio).
//
//	go test ./sql -run XXX -bench InsertChild -benchmem -count 5
func BenchmarkInsertChild(b *testing.B) {
	_, s := newHostileSession(b)
	mustExec(b, s, "CREATE TABLE p (id INT PRIMARY KEY)")
	q := "INSERT INTO p VALUES (1)"
	for i := 2; i <= 1000; i++ {
		q += ", (" + strconv.Itoa(i) + ")"
	}
	mustExec(b, s, q)
	mustExec(b, s, "CREATE TABLE c_fk (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p(id))")
	mustExec(b, s, "CREATE TABLE c_plain (id INT PRIMARY KEY, pid INT, KEY (pid))")
	ctx := context.Background()
	var fk, plain time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	mustExec(b, s, "BEGIN")
	for i := 0; i < b.N; i++ {
		args := []any{i, i%1000 + 1}
		t0 := time.Now()
		if _, err := s.Exec(ctx, "INSERT INTO c_fk VALUES (?, ?)", args); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := s.Exec(ctx, "INSERT INTO c_plain VALUES (?, ?)", args); err != nil {
			b.Fatal(err)
		}
		fk += t1.Sub(t0)
		plain += time.Since(t1)
		if i%1000 == 999 {
			mustExec(b, s, "COMMIT")
			mustExec(b, s, "BEGIN")
		}
	}
	mustExec(b, s, "COMMIT")
	b.ReportMetric(float64(fk.Nanoseconds())/float64(b.N), "fk-ns/row")
	b.ReportMetric(float64(plain.Nanoseconds())/float64(b.N), "plain-ns/row")
	b.ReportMetric(float64(fk)/float64(plain), "fk-x")
}
