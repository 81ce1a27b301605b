package storage

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plrun/plrun/types"
)

// benchBacked is a backed table (id, v; KEY iv (v)) of rows rows, all in
// the store and none resident but hot, the keys a writer updates.
func benchBacked(b *testing.B, rows, hot int) (*Table, uint64) {
	s, tb := newBackedIV(b, 9, 64<<20)
	bt := s.NewBatch()
	for id := int64(1); id <= int64(rows); id++ {
		pk := []types.Value{types.IntValue(id)}
		if _, err := tb.ApplyToStore(bt, pk, []types.Value{pk[0], types.IntValue(id % 100)}, 1); err != nil {
			b.Fatal(err)
		}
	}
	if err := bt.Commit(1); err != nil {
		b.Fatal(err)
	}
	if _, err := s.Flush(); err != nil {
		b.Fatal(err)
	}
	// the hot keys resident (a write makes them so)
	for id := int64(1); id <= int64(hot); id++ {
		pk := []types.Value{types.IntValue(id)}
		r := tb.Slot(KeyOf(pk), pk)
		tb.SetPending(r, &Pending{Owner: 1, Vals: []types.Value{pk[0], types.IntValue(id % 100)}})
		tb.InstallAll([]*Row{r}, 1, 2, 2)
	}
	return tb, 2
}

// benchWriteBeside measures a writer's commits (the write lock's step:
// the pending write and its install) to resident rows of a table most of
// whose rows are only stored, while readers read it (read: one read) in
// a loop. ns/op is the writer's mean latency; p99-ns its 99th percentile
// and reads/s the readers' throughput.
func benchWriteBeside(b *testing.B, readers int, read func(tb *Table)) {
	const rows, hot = 20000, 100
	tb, lsn := benchBacked(b, rows, hot)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				read(tb)
				reads.Add(1)
			}
		}()
	}
	time.Sleep(20 * time.Millisecond) // the readers under way
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	began := time.Now()
	r0 := reads.Load()
	for i := 0; i < b.N; i++ {
		id := int64(1 + i%hot)
		pk := []types.Value{types.IntValue(id)}
		t0 := time.Now()
		r := tb.Slot(KeyOf(pk), pk)
		r, _ = tb.SetPending(r, &Pending{Owner: TxnID(i + 2), Vals: []types.Value{pk[0], types.IntValue(int64(i) % 100)}})
		lsn++
		tb.InstallAll([]*Row{r}, TxnID(i+2), lsn, lsn)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	el := time.Since(began)
	n := reads.Load() - r0
	close(stop)
	wg.Wait()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100]), "p99-ns")
	b.ReportMetric(float64(n)/el.Seconds(), "reads/s")
}

// BenchmarkWriteBesideScans: two readers scan the whole table.
func BenchmarkWriteBesideScans(b *testing.B) {
	benchWriteBeside(b, 2, func(tb *Table) {
		n := 0
		tb.ScanEach(0, Newest, nil, nil, func(ScanItem) bool { n++; return true })
		if n != 20000 {
			panic("scan saw the wrong number of rows")
		}
	})
}

// BenchmarkWriteBesideIndexReads: two readers read a tenth of index iv
// (about 2000 stored rows fetched per read).
func BenchmarkWriteBesideIndexReads(b *testing.B) {
	lo, hi := types.IntValue(40), types.IntValue(49)
	benchWriteBeside(b, 2, func(tb *Table) {
		if n := len(tb.IndexEntries(1, nil, &lo, &hi)); n < 1900 {
			panic("index read saw too few entries")
		}
	})
}
