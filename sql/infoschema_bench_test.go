package sql_test

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkInfoSchemaColumns is SELECT ... FROM information_schema.COLUMNS
// WHERE TABLE_SCHEMA = ? over 200 tables of 10 columns, against building
// the table's rows once (build-rows, the floor): a statement builds them
// once per execution and its plan is not kept, so select costs build-rows
// plus the scan of those rows.
//
//	go test ./sql -run XXX -bench InfoSchemaColumns -count 5 -benchmem
func BenchmarkInfoSchemaColumns(b *testing.B) {
	_, s := newHostileSession(b)
	for i := 0; i < 200; i++ {
		mustExec(b, s, fmt.Sprintf("CREATE TABLE t%03d (id int PRIMARY KEY AUTO_INCREMENT, a int NOT NULL DEFAULT 0, b varchar(40), c decimal(10,2), d datetime, e text, f bigint unsigned, g char(10) DEFAULT 'x', h double, k int, UNIQUE KEY (b), KEY (a, k))", i))
	}
	ctx := context.Background()
	b.Run("build-rows", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if n := s.BuildInfoSchemaTable("COLUMNS"); n < 2000 {
				b.Fatalf("%d rows", n)
			}
		}
	})
	b.Run("select-one-table", func(b *testing.B) {
		// WHERE's equalities narrow the rows built to one table's
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r, err := s.Exec(ctx, "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", []any{"test", "t100"})
			if err != nil || len(r.Rows) != 10 {
				b.Fatalf("%v, %d rows", err, len(r.Rows))
			}
		}
	})
	b.Run("select", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r, err := s.Exec(ctx, "SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?", []any{"test"})
			if err != nil || len(r.Rows) != 2000 {
				b.Fatalf("%v, %d rows", err, len(r.Rows))
			}
		}
	})
}
