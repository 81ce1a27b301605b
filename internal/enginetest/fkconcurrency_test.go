package enginetest

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/sqlerr"
)

// TestForeignKeysUnderConcurrency: sessions insert children of random
// parents, move children between parents, delete parents (RESTRICT on one
// child table, CASCADE on another) and re-insert them, in transactions of
// a few statements that commit or roll back. However they interleave, no
// committed child may ever reference a missing parent: the child's check
// holds its parent row's lock to the end of its transaction, and a
// parent's delete locks and re-reads each child. (The short form is a
// smoke test; -soak runs long enough to catch a missing lock, which
// TestForeignKeyLocksTheParent in package sql pins deterministically.)
func TestForeignKeysUnderConcurrency(t *testing.T) {
	db, err := plrun.Open(t.TempDir(), &plrun.Options{Settings: map[string]string{"innodb_lock_wait_timeout": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	setup := db.Session()
	defer setup.Close()
	const parents = 20
	for _, q := range []string{
		"CREATE TABLE p (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE r (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p (id))",
		"CREATE TABLE k (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE ON UPDATE CASCADE)",
	} {
		if _, err := setup.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= parents; i++ {
		if _, err := setup.Exec(ctx, "INSERT INTO p VALUES (?, 0)", i); err != nil {
			t.Fatal(err)
		}
	}
	workers, rounds := 6, 150
	if soak() {
		rounds = 2000
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	unexpected := map[uint16]int{}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			s := db.Session()
			defer s.Close()
			rng := rand.New(rand.NewSource(int64(w)))
			for i := 0; i < rounds; i++ {
				id := w*100000 + i
				stmts := []string{"BEGIN"}
				for n := 0; n < 1+rng.Intn(3); n++ {
					pid := 1 + rng.Intn(parents)
					switch rng.Intn(6) {
					case 0:
						stmts = append(stmts, fmt.Sprintf("INSERT INTO r VALUES (%d, %d)", id*10+n, pid))
					case 1:
						stmts = append(stmts, fmt.Sprintf("INSERT INTO k VALUES (%d, %d)", id*10+n, pid))
					case 2:
						stmts = append(stmts, fmt.Sprintf("DELETE FROM p WHERE id = %d", pid))
					case 3:
						stmts = append(stmts, fmt.Sprintf("INSERT INTO p VALUES (%d, 0)", pid))
					case 4:
						stmts = append(stmts, fmt.Sprintf("UPDATE r SET pid = %d WHERE id %% 7 = %d", pid, rng.Intn(7)))
					case 5:
						stmts = append(stmts, fmt.Sprintf("DELETE FROM r WHERE pid = %d", pid))
					}
				}
				end := "COMMIT"
				if rng.Intn(4) == 0 {
					end = "ROLLBACK"
				}
				for _, q := range append(stmts, end) {
					_, err := s.Exec(ctx, q)
					switch errCode(err) {
					case 0, sqlerr.ErNoReferencedRow2, sqlerr.ErRowIsReferenced2, sqlerr.ErDupEntry, 1205, 1213:
					default:
						mu.Lock()
						unexpected[errCode(err)]++
						mu.Unlock()
						t.Errorf("%s: %v", q, err)
					}
				}
			}
		}(w)
	}
	wg.Wait()
	if len(unexpected) > 0 {
		t.Fatalf("unexpected errors: %v", unexpected)
	}
	for _, c := range []string{"r", "k"} {
		n := queryInt64(t, setup, "SELECT count(*) FROM "+c+" WHERE pid IS NOT NULL AND pid NOT IN (SELECT id FROM p)")
		if n != 0 {
			t.Errorf("%d rows of %s reference a parent that does not exist", n, c)
		}
	}
}
