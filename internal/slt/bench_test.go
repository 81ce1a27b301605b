package slt_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/internal/slt"
)

var versus = flag.String("slt.vs", "", "DSN of a MariaDB server to time beside plrun in BenchmarkCorpusJoins")

// BenchmarkCorpusJoins times select4 and select5 whole (each iteration on
// a fresh database); with -slt.vs, MariaDB runs the same files in the same
// run, file by file, so both see the same machine load:
//
//	go test ./internal/slt -run XXX -bench CorpusJoins -benchtime 1x -slt.vs 'root@tcp(127.0.0.1:3306)/'
func BenchmarkCorpusJoins(b *testing.B) {
	engines := []struct{ name, dsn string }{{"plrun", ""}}
	if *versus != "" {
		engines = append(engines, struct{ name, dsn string }{"mariadb", *versus})
	}
	for _, name := range []string{"select4.test", "select5.test"} {
		file := filepath.Join(corpusDir, name)
		recs := loadFile(b, file)
		for _, e := range engines {
			b.Run(name+"/"+e.name, func(b *testing.B) {
				var total time.Duration
				for i := 0; i < b.N; i++ {
					db, done := openOn(b, e.dsn, file)
					start := time.Now()
					st := slt.RunFile(db, "mysql", recs)
					total += time.Since(start)
					done()
					b.ReportMetric(float64(st.Passed), "passed")
				}
				b.ReportMetric(total.Seconds()/float64(b.N), "s/file")
			})
		}
	}
}

// BenchmarkManyTableJoin is a 20-table chain join written in a shuffled
// FROM order (each table's b column points at the next one's primary
// key, one table pinned by a constant): the planner must find the chain.
func BenchmarkManyTableJoin(b *testing.B) {
	const tables, rows = 20, 200
	db, err := plrun.Open(b.TempDir(), &plrun.Options{Settings: map[string]string{"innodb_flush_log_at_trx_commit": "0"}})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s := db.Session()
	defer s.Close()
	ctx := context.Background()
	exec := func(q string) {
		if _, err := s.Exec(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE DATABASE bench")
	exec("USE bench")
	rnd := rand.New(rand.NewSource(1))
	for t := 1; t <= tables; t++ {
		exec(fmt.Sprintf("CREATE TABLE t%d (a INT PRIMARY KEY, b INT, x VARCHAR(20))", t))
		var vals []string
		for r := 1; r <= rows; r++ {
			vals = append(vals, fmt.Sprintf("(%d,%d,'t%d r%d')", r, rnd.Intn(rows)+1, t, r))
		}
		exec(fmt.Sprintf("INSERT INTO t%d VALUES %s", t, strings.Join(vals, ",")))
	}
	var from, where, sel []string
	for _, t := range rnd.Perm(tables) {
		from = append(from, fmt.Sprintf("t%d", t+1))
	}
	for t := 1; t < tables; t++ {
		where = append(where, fmt.Sprintf("t%d.b = t%d.a", t, t+1))
		sel = append(sel, fmt.Sprintf("t%d.x", t))
	}
	where = append(where, "t1.a = 7")
	q := "SELECT " + strings.Join(sel, ", ") + " FROM " + strings.Join(from, ", ") + " WHERE " + strings.Join(where, " AND ")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := s.Query(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Rows) != 1 {
			b.Fatalf("%d rows, want 1", len(r.Rows))
		}
	}
}
