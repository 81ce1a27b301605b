package sql_test

import (
	"context"
	"testing"
)

// BenchmarkInsertChild is one INSERT of a child row (pid among 1000
// parents) per op, inside transactions of 1000 inserts so the log's sync
// is not what is measured, into a table with the FOREIGN KEY (fk=true:
// each row costs a point lookup and lock of its parent) and into the same
// table without it (fk=false).
//
//	go test ./sql -run XXX -bench InsertChild -benchmem -count 5
func BenchmarkInsertChild(b *testing.B) {
	for _, fk := range []bool{false, true} {
		name := "fk=false"
		ddl := "CREATE TABLE c (id INT PRIMARY KEY, pid INT, KEY (pid))"
		if fk {
			name = "fk=true"
			ddl = "CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p(id))"
		}
		b.Run(name, func(b *testing.B) {
			_, s := newHostileSession(b)
			mustExec(b, s, "CREATE TABLE p (id INT PRIMARY KEY)")
			q := "INSERT INTO p VALUES (1)"
			for i := 2; i <= 1000; i++ {
				q += ", (" + itoa(i) + ")"
			}
			mustExec(b, s, q)
			mustExec(b, s, ddl)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			mustExec(b, s, "BEGIN")
			for i := 0; i < b.N; i++ {
				if _, err := s.Exec(ctx, "INSERT INTO c VALUES (?, ?)", []any{i, i%1000 + 1}); err != nil {
					b.Fatal(err)
				}
				if i%1000 == 999 {
					mustExec(b, s, "COMMIT")
					mustExec(b, s, "BEGIN")
				}
			}
			mustExec(b, s, "COMMIT")
		})
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
