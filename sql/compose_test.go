package sql_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestDerivedRowsPerExecution: sessions running the same statement text
// at once (one cached plan) each read their own execution's rows of its
// derived table, CTE and view, never another's.
func TestDerivedRowsPerExecution(t *testing.T) {
	e, s := newHostileSession(t)
	mustExec(t, s, "CREATE TABLE t (id INT PRIMARY KEY, v INT)")
	for i := 0; i < 200; i += 10 {
		q := "INSERT INTO t VALUES "
		for k := i; k < i+10; k++ {
			if k > i {
				q += ","
			}
			q += fmt.Sprintf("(%d,%d)", k, k*3)
		}
		mustExec(t, s, q)
	}
	mustExec(t, s, "CREATE VIEW tv AS SELECT id, v FROM t")
	queries := []string{
		"SELECT SUM(v) FROM (SELECT v FROM t WHERE id < ?) AS d",
		"WITH c AS (SELECT v FROM t WHERE id < ?) SELECT SUM(v) FROM c",
		"SELECT SUM(v) FROM tv WHERE id < ?",
		"SELECT SUM(w) FROM (SELECT v AS w FROM t WHERE id < ? UNION ALL SELECT 0) AS u",
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ss := e.NewSession()
			defer ss.Close()
			for i := 0; i < 50; i++ {
				n := 1 + (g*50+i)%200
				want := fmt.Sprint(3 * n * (n - 1) / 2)
				for _, q := range queries {
					r, err := ss.Exec(context.Background(), q, []any{n})
					if err != nil {
						errs <- fmt.Errorf("%s: %v", q, err)
						return
					}
					if got := r.Rows[0][0].String(); got != want {
						errs <- fmt.Errorf("%s with %d: %s, want %s", q, n, got, want)
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
