package wal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// appendGroups appends groups of n records each, continuing after
// l.LastLSN(), and returns the last LSN.
func appendGroups(t *testing.T, l *Log, groups, n int) uint64 {
	t.Helper()
	for g := 0; g < groups; g++ {
		if err := l.AppendGroup(testGroup(l.LastLSN()+1, n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	return l.LastLSN()
}

// replayAll returns the LSNs replayed after afterLSN, checking payloads.
func replayAll(t *testing.T, l *Log, afterLSN uint64) []uint64 {
	t.Helper()
	var lsns []uint64
	err := l.Replay(afterLSN, func(r Record) error {
		if want := bytes.Repeat([]byte{byte(r.LSN)}, int(r.LSN%7)); !bytes.Equal(r.Payload, want) || r.Kind != KindCommit {
			return fmt.Errorf("lsn %d: payload %x kind %d", r.LSN, r.Payload, r.Kind)
		}
		lsns = append(lsns, r.LSN)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lsns
}

func checkSeq(t *testing.T, got []uint64, from, to uint64) {
	t.Helper()
	if uint64(len(got)) != to-from+1 && !(to < from && len(got) == 0) {
		t.Fatalf("replayed %d records, want lsns %d..%d", len(got), from, to)
	}
	for i, lsn := range got {
		if lsn != from+uint64(i) {
			t.Fatalf("replayed lsn %d at position %d, want %d", lsn, i, from+uint64(i))
		}
	}
}

func mustOpen(t *testing.T, dir string, opts Options) *Log {
	t.Helper()
	l, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLogRoundTripAndReopen(t *testing.T) {
	dir := t.TempDir()
	l := mustOpen(t, dir, Options{SegmentSize: 512})
	if l.LastLSN() != 0 {
		t.Fatalf("empty log LastLSN = %d", l.LastLSN())
	}
	checkSeq(t, replayAll(t, l, 0), 1, 0)
	last := appendGroups(t, l, 40, 5)
	if last != 200 {
		t.Fatalf("LastLSN = %d, want 200", last)
	}
	checkSeq(t, replayAll(t, l, 0), 1, 200)
	checkSeq(t, replayAll(t, l, 123), 124, 200)
	checkSeq(t, replayAll(t, l, 200), 1, 0)
	if err := l.AppendGroup(testGroup(150, 1)); err == nil {
		t.Fatal("AppendGroup accepted an lsn below LastLSN")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	segs, _ := listSegments(dir)
	if len(segs) < 5 {
		t.Fatalf("expected several segments with SegmentSize 512, got %d", len(segs))
	}
	l = mustOpen(t, dir, Options{SegmentSize: 512})
	defer l.Close()
	if l.LastLSN() != 200 {
		t.Fatalf("reopened LastLSN = %d, want 200", l.LastLSN())
	}
	var onDisk int64
	for _, s := range segs {
		onDisk += s.size
	}
	if l.Size() != onDisk {
		t.Fatalf("Size = %d, files hold %d", l.Size(), onDisk)
	}
	appendGroups(t, l, 1, 3)
	checkSeq(t, replayAll(t, l, 0), 1, 203)
}

func tailSegment(t *testing.T, dir string) string {
	t.Helper()
	segs, err := listSegments(dir)
	if err != nil || len(segs) == 0 {
		t.Fatalf("no segments: %v", err)
	}
	return segs[len(segs)-1].path
}

func appendToFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestLogCutsTornTail(t *testing.T) {
	full := testGroup(41, 4)
	tails := map[string][]byte{
		// A torn write: tidwall's length prefix promises more than is there.
		"partial entry": append([]byte{byte(len(full))}, full[:len(full)/2]...),
		// A file extended with zeros (each parses as an empty tidwall entry).
		"zero fill": make([]byte, 300),
	}
	for name, tail := range tails {
		t.Run(name, func(t *testing.T) {
			for _, segSize := range []int{0, 256} {
				dir := t.TempDir()
				l := mustOpen(t, dir, Options{SegmentSize: segSize})
				appendGroups(t, l, 10, 4)
				if err := l.Close(); err != nil {
					t.Fatal(err)
				}
				appendToFile(t, tailSegment(t, dir), tail)

				var logged []string
				logf := func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
				l = mustOpen(t, dir, Options{SegmentSize: segSize, Logf: logf})
				if len(logged) != 1 || !strings.Contains(logged[0], "torn tail") ||
					!strings.Contains(logged[0], fmt.Sprintf("%d bytes", len(tail))) || l.TornCut() == nil {
					t.Fatalf("the cut was not reported: %q", logged)
				}
				if l.LastLSN() != 40 {
					t.Fatalf("LastLSN after cut = %d, want 40", l.LastLSN())
				}
				checkSeq(t, replayAll(t, l, 0), 1, 40)
				appendGroups(t, l, 2, 4)
				l.Close()
				l = mustOpen(t, dir, Options{SegmentSize: segSize})
				checkSeq(t, replayAll(t, l, 0), 1, 48)
				l.Close()
			}
		})
	}
}

// TestLogRefusesDamagedLastEntry: bytes after the last intact entry that
// an unfinished write cannot leave (a flipped bit in a complete entry,
// garbage) are damage, not a torn tail: Open refuses them even though
// nothing intact follows.
func TestLogRefusesDamagedLastEntry(t *testing.T) {
	full := testGroup(41, 4)
	badCRC := bytes.Clone(full)
	badCRC[len(badCRC)-1] ^= 1
	tails := map[string][]byte{
		"bad crc in last group": append([]byte{byte(len(badCRC))}, badCRC...),
		"garbage":               []byte("\x03abc\x02zz\x01q\x7f"),
	}
	for name, tail := range tails {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			l := mustOpen(t, dir, Options{})
			appendGroups(t, l, 10, 4)
			l.Close()
			appendToFile(t, tailSegment(t, dir), tail)
			if l, err := Open(dir, Options{}); !errors.Is(err, ErrDamaged) {
				if l != nil {
					l.Close()
				}
				t.Fatalf("Open = %v, want ErrDamaged", err)
			}
		})
	}
}

// TestLogTruncateDamagedOnlyGroup: the operator's deliberate cut
// (plrun recover --truncate-damaged) of a log whose only group is damaged.
func TestLogTruncateDamagedOnlyGroup(t *testing.T) {
	dir := t.TempDir()
	l := mustOpen(t, dir, Options{})
	appendGroups(t, l, 1, 3)
	l.Close()
	path := tailSegment(t, dir)
	b, _ := os.ReadFile(path)
	b[len(b)-2] ^= 0xff
	os.WriteFile(path, b, 0o640)
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrDamaged) {
		t.Fatalf("Open = %v, want ErrDamaged", err)
	}
	rep, err := Inspect(dir)
	if err != nil || rep.Damage == nil || rep.Damage.Offset != 0 || rep.Damage.IntactThrough != 0 {
		t.Fatalf("Inspect = %+v, %v", rep, err)
	}
	if err := TruncateDamaged(dir, rep.Damage); err != nil {
		t.Fatal(err)
	}
	l = mustOpen(t, dir, Options{})
	defer l.Close()
	if l.LastLSN() != 0 {
		t.Fatalf("LastLSN = %d after cutting the only group", l.LastLSN())
	}
	checkSeq(t, replayAll(t, l, 0), 1, 0)
	appendGroups(t, l, 1, 2)
	checkSeq(t, replayAll(t, l, 0), 1, 2)
}

func TestLogCorruptionBeforeTailIsAnError(t *testing.T) {
	t.Run("tail segment", func(t *testing.T) {
		dir := t.TempDir()
		l := mustOpen(t, dir, Options{})
		appendGroups(t, l, 5, 4)
		l.Close()
		path := tailSegment(t, dir)
		b, _ := os.ReadFile(path)
		b[10] ^= 0xff // inside the first group
		os.WriteFile(path, b, 0o640)
		if l, err := Open(dir, Options{}); !errors.Is(err, ErrCorrupt) {
			if l != nil {
				l.Close()
			}
			t.Fatalf("Open = %v, want ErrCorrupt", err)
		}
	})
	t.Run("older segment", func(t *testing.T) {
		dir := t.TempDir()
		l := mustOpen(t, dir, Options{SegmentSize: 256})
		appendGroups(t, l, 30, 4)
		l.Close()
		segs, _ := listSegments(dir)
		b, _ := os.ReadFile(segs[0].path)
		b[10] ^= 0xff
		os.WriteFile(segs[0].path, b, 0o640)
		l = mustOpen(t, dir, Options{SegmentSize: 256})
		defer l.Close()
		if l.LastLSN() != 120 {
			t.Fatalf("LastLSN = %d, want 120", l.LastLSN())
		}
		if err := l.Replay(0, func(Record) error { return nil }); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Replay = %v, want ErrCorrupt", err)
		}
	})
}

func TestLogTruncateBefore(t *testing.T) {
	dir := t.TempDir()
	l := mustOpen(t, dir, Options{SegmentSize: 300})
	appendGroups(t, l, 50, 4) // lsns 1..200, groups of 4
	before := l.Size()
	if err := l.TruncateBefore(101); err != nil {
		t.Fatal(err)
	}
	if l.Size() >= before {
		t.Fatalf("Size %d not below %d after truncation", l.Size(), before)
	}
	// The group holding 101 (97..100 is covered, 101..104 is not) stays.
	checkSeq(t, replayAll(t, l, 101), 102, 200)
	checkSeq(t, replayAll(t, l, 100), 101, 200)
	if err := l.Replay(0, func(Record) error { return nil }); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Replay(0) of a truncated log = %v, want a gap error", err)
	}
	// Everything covered: the last group is kept so LastLSN survives.
	if err := l.TruncateBefore(200); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l = mustOpen(t, dir, Options{SegmentSize: 300})
	defer l.Close()
	if l.LastLSN() != 200 {
		t.Fatalf("LastLSN after full truncation and reopen = %d, want 200", l.LastLSN())
	}
	checkSeq(t, replayAll(t, l, 200), 1, 0)
	appendGroups(t, l, 3, 4)
	checkSeq(t, replayAll(t, l, 200), 201, 212)
	segs, _ := listSegments(dir)
	var onDisk int64
	for _, s := range segs {
		onDisk += s.size
	}
	if l.Size() != onDisk {
		t.Fatalf("Size = %d, files hold %d", l.Size(), onDisk)
	}
}

func TestLogFailStopOnInjectedErrors(t *testing.T) {
	boom := errors.New("injected EIO")
	for _, hook := range []string{"write", "sync"} {
		t.Run(hook, func(t *testing.T) {
			dir := t.TempDir()
			armed := false
			fault := func() error {
				if armed {
					return boom
				}
				return nil
			}
			opts := Options{}
			if hook == "write" {
				opts.BeforeWrite = fault
			} else {
				opts.BeforeSync = fault
			}
			l := mustOpen(t, dir, opts)
			appendGroups(t, l, 2, 2)
			armed = true
			err := l.AppendGroup(testGroup(5, 2))
			if hook == "sync" {
				if err != nil {
					t.Fatal(err)
				}
				err = l.Sync()
			}
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v, want the injected error", err)
			}
			armed = false // the Log must stay failed even when the fault clears
			if err := l.AppendGroup(testGroup(7, 1)); !errors.Is(err, boom) {
				t.Fatalf("AppendGroup after failure = %v", err)
			}
			if err := l.Sync(); !errors.Is(err, boom) {
				t.Fatalf("Sync after failure = %v", err)
			}
			l.Close()
			l = mustOpen(t, dir, Options{})
			defer l.Close()
			got := replayAll(t, l, 0)
			if len(got) < 4 {
				t.Fatalf("lost synced records: replayed %v", got)
			}
			checkSeq(t, got, 1, uint64(len(got)))
		})
	}
}

func TestLogSharesDirWithSnapshots(t *testing.T) {
	dir := t.TempDir()
	l := mustOpen(t, dir, Options{})
	appendGroups(t, l, 3, 3)
	if err := WriteSnapshot(dir, 6, func(w io.Writer) error { _, err := w.Write([]byte("state")); return err }); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l = mustOpen(t, dir, Options{})
	defer l.Close()
	checkSeq(t, replayAll(t, l, 6), 7, 9)
	if _, err := os.Stat(filepath.Join(dir, snapshotName(6))); err != nil {
		t.Fatal(err)
	}
}

// TruncateBefore runs beside the writer (a checkpoint while commits go on).
func TestLogTruncateBeforeConcurrentWithAppends(t *testing.T) {
	dir := t.TempDir()
	l := mustOpen(t, dir, Options{SegmentSize: 1024})
	done := make(chan error, 1)
	go func() {
		for g := 0; g < 300; g++ {
			if err := l.AppendGroup(testGroup(l.LastLSN()+1, 3)); err != nil {
				done <- err
				return
			}
			if err := l.Sync(); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	var covered uint64
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		default:
			covered = l.LastLSN() / 2
			if err := l.TruncateBefore(covered); err != nil {
				t.Fatal(err)
			}
		}
	}
	l.Close()
	l = mustOpen(t, dir, Options{SegmentSize: 1024})
	defer l.Close()
	checkSeq(t, replayAll(t, l, covered), covered+1, 900)
}
