package enginetest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plrun/plrun"
)

// TestCheckpointSnapshotIsConsistent takes checkpoints while transactions
// move units between two tables, and opens a copy of the table store as
// each left it on disk, on its own (no log to replay after it): the store
// alone must hold whole transactions only, across tables, so a.v + b.v is
// exact in every one.
func TestCheckpointSnapshotIsConsistent(t *testing.T) {
	dir := t.TempDir()
	db, err := plrun.Open(dir, &plrun.Options{Settings: map[string]string{"enable_early_lock_release": "ON"}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	setup := db.Session()
	defer setup.Close()
	for _, q := range []string{
		"CREATE TABLE a (id INT PRIMARY KEY, v INT NOT NULL)",
		"CREATE TABLE b (id INT PRIMARY KEY, v INT NOT NULL)",
		"INSERT INTO a VALUES (1, 1000000)",
		"INSERT INTO b VALUES (1, 0)",
	} {
		if _, err := setup.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	// Filler rows after a's hot row make reading table a take a while, and
	// the moves write b before a (the reverse of the checkpoint's table
	// order), so a checkpoint that read each table at its newest state
	// instead of one snapshot would catch b's half of a move.
	var fill strings.Builder
	fill.WriteString("INSERT INTO a VALUES ")
	for i := 2; i <= 20000; i++ {
		if i > 2 {
			fill.WriteString(",")
		}
		fmt.Fprintf(&fill, "(%d, 0)", i)
	}
	if _, err := setup.Exec(ctx, fill.String()); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var moves atomic.Int64
	errs := make(chan error, 8)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := db.Session()
			defer s.Close()
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, q := range []string{"BEGIN", "UPDATE b SET v = v + 1 WHERE id = 1", "UPDATE a SET v = v - 1 WHERE id = 1", "COMMIT"} {
					if _, err := s.Exec(ctx, q); err != nil {
						errs <- fmt.Errorf("%s: %w", q, err)
						return
					}
				}
				moves.Add(1)
			}
		}()
	}
	deadline := time.Now().Add(1500 * time.Millisecond)
	checked := 0
	for time.Now().Before(deadline) && len(errs) == 0 {
		if _, err := setup.Exec(ctx, "CHECKPOINT"); err != nil {
			t.Fatal(err)
		}
		alone := t.TempDir()
		if err := db.Engine().CopyStore(alone); err != nil {
			t.Fatal(err)
		}
		db2, err := plrun.Open(alone, nil)
		if err != nil {
			t.Fatalf("opening the store alone: %v", err)
		}
		s2 := db2.Session()
		ra, erra := s2.Query(ctx, "SELECT v FROM a WHERE id = 1")
		rb, errb := s2.Query(ctx, "SELECT v FROM b WHERE id = 1")
		s2.Close()
		db2.Close()
		if erra != nil || errb != nil {
			t.Fatal(erra, errb)
		}
		va, _ := strconv.Atoi(ra.Rows[0][0].String())
		vb, _ := strconv.Atoi(rb.Rows[0][0].String())
		if va+vb != 1000000 {
			t.Fatalf("store alone: a.v %d + b.v %d = %d, want 1000000: it holds part of a transaction", va, vb, va+vb)
		}
		checked++
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if checked == 0 || moves.Load() == 0 {
		t.Fatalf("checked %d snapshots over %d moves", checked, moves.Load())
	}
	t.Logf("%d copies of the store checked alone while %d two-table transactions committed", checked, moves.Load())
}
