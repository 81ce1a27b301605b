package enginetest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/plrun/plrun"
)

// TestLargeTransactionChunks (seed 004, invariant 7): a transaction whose
// redo is past consensus_max_log_size is logged as chunks before its
// commit record, while small commits go on between them; after a restart
// the large transaction is whole and every small commit is there.
func TestLargeTransactionChunks(t *testing.T) {
	dir := t.TempDir()
	settings := map[string]string{"consensus_max_log_size": "4096", "consensus_large_trx_split_size": "512"}
	db, err := plrun.Open(dir, &plrun.Options{Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := db.Session()
	execAll(t, s,
		"CREATE TABLE big (id INT PRIMARY KEY, pad VARCHAR(200) NOT NULL)",
		"CREATE TABLE small (id INT PRIMARY KEY)",
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	smalls := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		s2 := db.Session()
		defer s2.Close()
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s2.Exec(ctx, "INSERT INTO small VALUES (?)", i); err != nil {
				t.Error(err)
				return
			}
			smalls = i
		}
	}()
	pad := strings.Repeat("x", 150)
	for round := 0; round < 3; round++ {
		if _, err := s.Exec(ctx, "BEGIN"); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 200; i++ {
			if _, err := s.Exec(ctx, "INSERT INTO big VALUES (?, ?)", round*1000+i, pad); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Exec(ctx, "COMMIT"); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	r, err := s.Query(ctx, "SHOW GLOBAL STATUS LIKE 'Plrun_large_trx%'")
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, row := range r.Rows {
		status[row[0].String()] = row[1].String()
	}
	if chunks, _ := strconv.Atoi(status["Plrun_large_trx_chunks"]); status["Plrun_large_trx"] != "3" || chunks < 6 {
		t.Fatalf("counters %v: want 3 large transactions written in chunks", status)
	}
	s.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := plrun.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	s3 := db2.Session()
	defer s3.Close()
	r, err = s3.Query(ctx, "SELECT COUNT(*), MIN(LENGTH(pad)) FROM big")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Rows[0][0].String(), " ", r.Rows[0][1].String()); got != "600 150" {
		t.Fatalf("after restart big has (count, min length) %s, want 600 150", got)
	}
	r, err = s3.Query(ctx, "SELECT COUNT(*) FROM small")
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows[0][0].String() != fmt.Sprint(smalls) {
		t.Fatalf("after restart small has %s rows, want the %d acknowledged", r.Rows[0][0].String(), smalls)
	}
	t.Logf("3 large transactions in %s chunks, %d small commits meanwhile", status["Plrun_large_trx_chunks"], smalls)
}
