package enginetest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"

	"github.com/plrun/plrun/wal"
)

// The corruption matrix: a real log written by the engine (one INSERT per
// commit group, in several segments), damaged in one way at one entry, then
// reopened. Open must either refuse with an error that names the damaged
// file and offset, or cut only a torn last write; after every accepted
// open, every commit of every group before the damaged one is present, and
// only the damaged group itself may be missing, and only when it was the
// last one.

type damageKind string

const (
	dmgLength    damageKind = "length prefix"
	dmgPayload   damageKind = "payload byte"
	dmgCRC       damageKind = "crc"
	dmgZeroPage  damageKind = "zero page"
	dmgGarbage   damageKind = "garbage page"
	dmgTruncated damageKind = "truncated entry"
)

var damageKinds = []damageKind{dmgLength, dmgPayload, dmgCRC, dmgZeroPage, dmgGarbage, dmgTruncated}

// matrixRows is how many single-row commits the log holds; with
// matrixSegment-byte segments that is several segments, each holding
// more than two 4 KiB pages, so that a page of damage at a segment's first
// or middle entry still has intact entries after it.
const (
	matrixRows    = 900
	matrixSegment = 16 << 10
)

type matrixOutcome struct {
	kind     damageKind
	where    string
	segment  string
	outcome  string // "refused", "cut torn tail", "opened unchanged"
	lostRows int
}

func TestCorruptionMatrix(t *testing.T) {
	template := t.TempDir()
	writeMatrixLog(t, template)
	rep, err := wal.Inspect(filepath.Join(template, "wal"))
	if err != nil || rep.Damage != nil || rep.Torn != nil {
		t.Fatalf("fresh log: %+v %v", rep, err)
	}
	if len(rep.Segments) < 3 {
		t.Fatalf("want at least 3 segments, got %d", len(rep.Segments))
	}
	var outcomes []matrixOutcome
	for _, segName := range []string{"tail", "older"} {
		segIdx := len(rep.Segments) - 1
		if segName == "older" {
			segIdx = len(rep.Segments) / 2
		}
		seg := rep.Segments[segIdx]
		if len(seg.Entries) < 10 {
			t.Fatalf("%s segment has only %d entries", segName, len(seg.Entries))
		}
		positions := map[string]int{"first": 0, "middle": len(seg.Entries) / 2, "last": len(seg.Entries) - 1}
		order := []string{"first", "middle", "last"}
		if soak() { // the long form: every tenth entry as well
			for i := 1; i < len(seg.Entries)-1; i += 10 {
				name := fmt.Sprintf("entry-%d", i)
				positions[name] = i
				order = append(order, name)
			}
		}
		for _, where := range order {
			entryIdx := positions[where]
			for _, kind := range damageKinds {
				name := fmt.Sprintf("%s/%s/%s", segName, where, kind)
				t.Run(name, func(t *testing.T) {
					o := runMatrixCase(t, template, rep, segIdx, entryIdx, kind)
					o.segment, o.where = segName, where
					outcomes = append(outcomes, o)
				})
			}
		}
	}
	if testing.Verbose() {
		sort.SliceStable(outcomes, func(i, j int) bool { return outcomes[i].segment > outcomes[j].segment })
		var b strings.Builder
		fmt.Fprintf(&b, "| segment | entry | damage | outcome | rows lost |\n| --- | --- | --- | --- | --- |\n")
		for _, o := range outcomes {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %d |\n", o.segment, o.where, o.kind, o.outcome, o.lostRows)
		}
		t.Logf("corruption matrix:\n%s", b.String())
	}
}

// writeMatrixLog creates t(id) and commits matrixRows single-row INSERTs,
// each its own commit group, then closes the engine cleanly and removes
// its table store: the log is then the only copy of the rows (a folder
// of the format before the store, which each open upgrades), so what a
// damaged entry costs is what the log loses.
func writeMatrixLog(t *testing.T, dir string) {
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, WalOptions: wal.Options{SegmentSize: matrixSegment}})
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewSession()
	mustSQL(t, s, "CREATE TABLE t (id INT PRIMARY KEY, pad VARCHAR(40))")
	for i := 1; i <= matrixRows; i++ {
		if _, err := s.Exec(context.Background(), "INSERT INTO t VALUES (?, 'some padding for a realistic row')", []any{i}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "store")); err != nil {
		t.Fatal(err)
	}
}

func runMatrixCase(t *testing.T, template string, rep *wal.Report, segIdx, entryIdx int, kind damageKind) matrixOutcome {
	dir := t.TempDir()
	copyDir(t, template, dir)
	seg := rep.Segments[segIdx]
	path := filepath.Join(dir, "wal", filepath.Base(seg.Path))
	entry := seg.Entries[entryIdx]
	from := damageEntry(t, path, entry, kind)

	// What must survive: every row committed in a group before the first
	// damaged byte. Row i was committed at LSN i+1 (the CREATE TABLE is
	// LSN 1).
	firstHit := entry
	for _, e := range seg.Entries {
		if e.End > int64(from) {
			firstHit = e
			break
		}
	}
	mustKeep := int(firstHit.FirstLSN) - 2
	isLastEntry := segIdx == len(rep.Segments)-1 && entryIdx == len(seg.Entries)-1

	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, WalOptions: wal.Options{SegmentSize: matrixSegment}})
	if err != nil {
		if !errors.Is(err, wal.ErrDamaged) {
			t.Fatalf("open refused, but not as damage: %v", err)
		}
		if !strings.Contains(err.Error(), filepath.Base(seg.Path)) || !strings.Contains(err.Error(), "offset") ||
			!strings.Contains(err.Error(), "plrun recover") {
			t.Fatalf("the refusal does not name the file, the offset and the way on: %v", err)
		}
		checkTruncateDamaged(t, dir, mustKeep)
		return matrixOutcome{kind: kind, outcome: "refused"}
	}
	defer e.Close()
	s := e.NewSession()
	defer s.Close()
	n := int(queryInt(t, s, "SELECT COUNT(*) FROM t"))
	max := int(queryInt(t, s, "SELECT MAX(id) FROM t"))
	if n != max {
		t.Fatalf("rows 1..%d with %d missing in between", max, max-n)
	}
	switch {
	case n == matrixRows:
		return matrixOutcome{kind: kind, outcome: "opened unchanged"}
	case !isLastEntry:
		t.Fatalf("damage at a %s entry was cut silently: %d of %d rows left", "non-last", n, matrixRows)
	case n < mustKeep:
		t.Fatalf("cut more than the torn last write: %d rows left, want >= %d", n, mustKeep)
	}
	return matrixOutcome{kind: kind, outcome: "cut torn tail", lostRows: matrixRows - n}
}

// checkTruncateDamaged runs the operator's way on (plrun recover
// --truncate-damaged): afterwards the database opens with exactly the rows
// committed before the damage.
func checkTruncateDamaged(t *testing.T, dir string, mustKeep int) {
	rep, err := wal.Inspect(filepath.Join(dir, "wal"))
	if err != nil || rep.Damage == nil {
		t.Fatalf("Inspect after a refusal: %+v, %v", rep, err)
	}
	if err := wal.TruncateDamaged(filepath.Join(dir, "wal"), rep.Damage); err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, WalOptions: wal.Options{SegmentSize: matrixSegment}})
	if err != nil {
		t.Fatalf("open after --truncate-damaged: %v", err)
	}
	defer e.Close()
	s := e.NewSession()
	defer s.Close()
	if n := int(queryInt(t, s, "SELECT COUNT(*) FROM t")); n != mustKeep {
		t.Fatalf("after --truncate-damaged: %d rows, want the %d before the damage", n, mustKeep)
	}
}

// damageEntry damages the entry e in the segment file and returns the
// offset of the first byte it changed.
func damageEntry(t *testing.T, path string, e wal.Entry, kind damageKind) int {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	off, end := int(e.Offset), int(e.End)
	from := off
	switch kind {
	case dmgLength:
		b[off] ^= 0x40
	case dmgPayload:
		b[end-1] ^= 0x01
	case dmgCRC:
		b[off+1+4] ^= 0x10 // one-byte length prefix, then the frame's CRC
	case dmgZeroPage, dmgGarbage:
		start := off &^ (page - 1)
		from = start
		stop := min(start+page, len(b))
		for i := start; i < stop; i++ {
			if kind == dmgZeroPage {
				b[i] = 0
			} else {
				b[i] = byte(i*131 + 7)
			}
		}
	case dmgTruncated:
		// The entry loses its second half; what followed moves up.
		cut := off + (end-off)/2
		b = append(b[:cut:cut], b[end:]...)
	}
	if err := os.WriteFile(path, b, 0o640); err != nil {
		t.Fatal(err)
	}
	return from
}

func copyDir(t *testing.T, from, to string) {
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if info.Name() == "LOCK" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOpenRemovesUnfinishedSnapshots: the temporary file of a checkpoint
// killed before its rename is removed when the database opens, and the
// finished snapshot beside it is kept.
func TestOpenRemovesUnfinishedSnapshots(t *testing.T) {
	dir := t.TempDir()
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewSession()
	mustSQL(t, s, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)", "CHECKPOINT")
	s.Close()
	e.Close()
	tmp := filepath.Join(dir, "snapshot-00000000000000000099.plr.tmp")
	if err := os.WriteFile(tmp, []byte("half a snapshot"), 0o640); err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	e, err = engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Fatalf("unfinished snapshot still there: %v", err)
	}
	if n := strings.Count(logged.String(), "temporary file of a checkpoint"); n != 1 || !strings.Contains(logged.String(), "file=snapshot-00000000000000000099.plr.tmp") {
		t.Fatalf("error log:\n%s", logged.String())
	}
	s = e.NewSession()
	defer s.Close()
	if n := queryInt(t, s, "SELECT COUNT(*) FROM t"); n != 1 {
		t.Fatalf("%d rows after reopen, want 1", n)
	}
}
