package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/plrun/plrun"
)

// BenchmarkSeed003Call is seed 003's CALL (n x INSERT; COMMIT, n = 100)
// in each procedure language, async commit off and on: SQL/PSM must stay
// within 1.5x of Lua. One op is one CALL; ns/op / 100 is the cost of one
// INSERT + COMMIT.
//
//	go test ./bench -run - -bench Seed003Call -count 6 | benchstat -
func BenchmarkSeed003Call(b *testing.B) {
	const n = 100
	for _, lang := range []string{"sql", "lua", "js"} {
		for _, async := range []bool{false, true} {
			b.Run(fmt.Sprintf("lang=%s/async=%s", lang, onOff(async)), func(b *testing.B) {
				ctx := context.Background()
				db, err := plrun.Open(b.TempDir(), nil)
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				s := db.Session()
				defer s.Close()
				proc, ddl, err := plcommitProc(lang)
				if err != nil {
					b.Fatal(err)
				}
				for _, q := range []string{PlcommitTable, ddl,
					"SET ob_enable_pl_async_commit = " + onOff(async)} {
					if _, err := s.Exec(ctx, q); err != nil {
						b.Fatalf("%s: %v", q, err)
					}
				}
				call := fmt.Sprintf("CALL %s(%d)", proc, n)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := s.Exec(ctx, call); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/commit")
			})
		}
	}
}
