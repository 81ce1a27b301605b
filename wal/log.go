package wal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	tidwal "github.com/tidwall/wal"
)

// Options configures a Log.
type Options struct {
	// Fault injection for tests: when non-nil, called before each write /
	// sync; a non-nil error is returned instead of doing it (and, like a real
	// failure, leaves the Log failed).
	BeforeWrite func() error
	BeforeSync  func() error
	// SegmentSize is the target size of one segment file; 0 means the
	// library default (20 MiB). tidwall/wal keeps the whole tail segment in
	// memory, so this is also the log's resident memory.
	SegmentSize int
	// Logf reports what Open did to the files (a torn tail cut); nil
	// reports nothing.
	Logf func(format string, args ...any)
}

// defaultSegmentSize mirrors tidwall/wal's DefaultOptions.SegmentSize; we
// need it to predict when the library starts a new segment file.
const defaultSegmentSize = 20 << 20

// Log is the append-only redo log. One tidwall/wal entry holds one whole
// commit group (the concatenated frames of its records), so tidwall's entry
// index and LSNs grow together: entry i+1's first LSN > entry i's last LSN.
//
// AppendGroup and Sync are called by one goroutine (the commit pipeline's
// writer). LastLSN and Size may be called from any goroutine. TruncateBefore
// may run concurrently with AppendGroup and Sync, but not with Replay.
type Log struct {
	dir   string
	opts  Options
	segSz int
	tw    *tidwal.Log
	torn  *Torn // what Open cut, if anything

	lastLSN atomic.Uint64 // highest LSN appended (or recovered)
	size    atomic.Int64  // bytes of all segment files
	failed  atomic.Pointer[error]

	// truncMu serializes TruncateBefore calls with one another.
	truncMu sync.Mutex

	// mu guards the fields below and the tidwall mutations that change them
	// (Write, TruncateFront). Lock order: truncMu, then mu, then tidwall's own
	// lock (taken inside its methods).
	mu struct {
		sync.Mutex
		nextIndex uint64 // tidwall index of the next entry
		tailBytes int    // predicted size of tidwall's tail segment
		dirDirty  bool   // a segment file was created since the last dir fsync
		closed    bool
	}
}

// Open opens or creates the log in dir. A torn tail (bad bytes after the
// last intact entry of the tail segment, with nothing intact after them) is
// cut on disk before Open returns and reported to Options.Logf; a bad entry
// that intact entries follow is damage, and Open refuses it with a
// *DamageError instead of dropping what follows (see Inspect).
func Open(dir string, opts Options) (*Log, error) {
	segSz := opts.SegmentSize
	if segSz <= 0 {
		segSz = defaultSegmentSize
	}
	temps, err := removeTruncationTemps(dir)
	if err != nil {
		return nil, err
	}
	if len(temps) > 0 && opts.Logf != nil {
		opts.Logf("wal: removed the temporary files of a truncation that did not finish: %s", strings.Join(temps, ", "))
	}
	torn, err := cutTornTail(dir)
	if err != nil {
		return nil, err
	}
	if torn != nil && opts.Logf != nil {
		opts.Logf("wal: cut a torn tail (an unfinished last write): %s", torn)
	}
	tw, err := openTidwall(dir, segSz)
	if err != nil {
		return nil, err
	}
	l := &Log{dir: dir, opts: opts, segSz: segSz, tw: tw, torn: torn}
	if err := l.recoverTail(); err != nil {
		_ = tw.Close()
		return nil, err
	}
	if err := syncDir(dir); err != nil {
		_ = tw.Close()
		return nil, err
	}
	return l, nil
}

// cutTornTail inspects the tail segment and cuts a torn tail from it; it
// returns a *DamageError for damage.
func cutTornTail(dir string) (*Torn, error) {
	segs, err := listSegments(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	if len(segs) == 0 {
		return nil, nil
	}
	rep, err := inspectSegments(segs[len(segs)-1:])
	if err != nil {
		return nil, err
	}
	if rep.Damage != nil {
		return nil, &DamageError{*rep.Damage}
	}
	if rep.Torn != nil {
		if err := cutAt(rep.Torn.Segment, rep.Torn.Offset); err != nil {
			return nil, err
		}
	}
	return rep.Torn, nil
}

// TornCut reports the torn tail Open cut, or nil.
func (l *Log) TornCut() *Torn { return l.torn }

// openTidwall opens the library log, whose tail cutTornTail has made
// whole.
func openTidwall(dir string, segSz int) (*tidwal.Log, error) {
	twOpts := &tidwal.Options{
		NoSync:      true, // the pipeline decides when to sync
		SegmentSize: segSz,
		// Older segments are read only by replay (start) and inspection:
		// one cached beside the tail, which tidwall keeps in memory whole.
		SegmentCacheSize: 1,
		AllowEmpty:       true, // a log whose only entry was torn is empty
		DirPerms:         0o750,
		FilePerms:        0o640,
	}
	tw, err := tidwal.Open(dir, twOpts)
	if err != nil {
		return nil, fmt.Errorf("wal: open %s: %w", dir, err)
	}
	return tw, nil
}

type segmentFile struct {
	path  string
	index uint64 // tidwall index of the segment's first entry
	size  int64
}

// listSegments returns the segment files in index order, using tidwall's
// naming rule: exactly 20 decimal digits, the first entry's index.
func listSegments(dir string) ([]segmentFile, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("wal: list %s: %w", dir, err)
	}
	var segs []segmentFile
	for _, de := range des {
		name := de.Name()
		if de.IsDir() || len(name) != 20 {
			continue
		}
		idx, err := strconv.ParseUint(name, 10, 64)
		if err != nil || idx == 0 {
			continue
		}
		info, err := de.Info()
		if err != nil {
			return nil, fmt.Errorf("wal: stat %s: %w", name, err)
		}
		segs = append(segs, segmentFile{path: filepath.Join(dir, name), index: idx, size: info.Size()})
	}
	return segs, nil // os.ReadDir sorts by name, and zero-padded names sort by index
}

// recoverTail verifies the tail segment through tidwall (cutTornTail has
// already cut a torn tail) and initializes the Log's bookkeeping.
func (l *Log) recoverTail() error {
	segs, err := listSegments(l.dir)
	if err != nil {
		return err
	}
	first, last, err := l.bounds()
	if err != nil {
		return err
	}
	tailStart := first
	if len(segs) > 0 && segs[len(segs)-1].index > tailStart {
		tailStart = segs[len(segs)-1].index
	}
	keep := last
	// Every entry of the tail segment must be intact and in LSN order.
	var prev uint64
	for idx := max(tailStart, first); idx <= keep; idx++ {
		recs, err := l.readGroup(idx)
		if err != nil {
			return fmt.Errorf("wal: entry %d before the tail: %w", idx, err)
		}
		if recs[0].LSN <= prev {
			return fmt.Errorf("%w: entry %d starts at lsn %d after lsn %d", ErrCorrupt, idx, recs[0].LSN, prev)
		}
		prev = recs[len(recs)-1].LSN
	}
	if keep >= first && keep < tailStart {
		// The tail segment is empty (tidwall had just started it): the last
		// LSN is in the previous, already fsynced, segment.
		recs, err := l.readGroup(keep)
		if err != nil {
			return fmt.Errorf("wal: last entry %d: %w", keep, err)
		}
		prev = recs[len(recs)-1].LSN
	}
	l.lastLSN.Store(prev)
	l.mu.nextIndex = keep + 1
	l.recountSizeLocked(segs)
	return nil
}

// recountSizeLocked resets the size counters from the files on disk.
func (l *Log) recountSizeLocked(segs []segmentFile) {
	var total int64
	for _, s := range segs {
		total += s.size
	}
	l.size.Store(total)
	l.mu.tailBytes = 0
	if len(segs) > 0 {
		l.mu.tailBytes = int(segs[len(segs)-1].size)
	}
}

// bounds returns tidwall's first and last index; first > last means empty.
func (l *Log) bounds() (first, last uint64, err error) {
	if first, err = l.tw.FirstIndex(); err != nil {
		return 0, 0, fmt.Errorf("wal: %w", err)
	}
	if last, err = l.tw.LastIndex(); err != nil {
		return 0, 0, fmt.Errorf("wal: %w", err)
	}
	return first, last, nil
}

// readGroup reads and verifies one entry. An empty entry is corrupt: we never
// write one, but a zero-filled tail parses as a run of them.
func (l *Log) readGroup(idx uint64) ([]Record, error) {
	data, err := l.tw.Read(idx)
	if err != nil {
		if errors.Is(err, tidwal.ErrCorrupt) {
			return nil, fmt.Errorf("wal: read entry %d: %w", idx, errors.Join(ErrCorrupt, err))
		}
		return nil, fmt.Errorf("wal: read entry %d: %w", idx, err)
	}
	recs, err := DecodeRecords(data)
	if err != nil {
		return nil, fmt.Errorf("entry %d: %w", idx, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%w: entry %d is empty", ErrCorrupt, idx)
	}
	return recs, nil
}

// AppendGroup writes one commit group as one entry, without fsync. The
// group's LSNs must all exceed LastLSN. After a failed write the Log is
// failed: every later AppendGroup and Sync returns the same error.
func (l *Log) AppendGroup(group []byte) error {
	if errp := l.failed.Load(); errp != nil {
		return *errp
	}
	first, last, ok := groupLSNRange(group)
	if !ok {
		return fmt.Errorf("wal: AppendGroup: %w: not a well-formed non-empty group", ErrCorrupt)
	}
	if prev := l.lastLSN.Load(); first <= prev {
		return fmt.Errorf("wal: AppendGroup: group starts at lsn %d, not after lsn %d", first, prev)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mu.closed {
		return errors.New("wal: log closed")
	}
	if l.opts.BeforeWrite != nil {
		if err := l.opts.BeforeWrite(); err != nil {
			return l.fail(fmt.Errorf("wal: write: %w", err))
		}
	}
	if err := l.tw.Write(l.mu.nextIndex, group); err != nil {
		// tidwall's in-memory tail may now disagree with the file: never
		// write through it again.
		return l.fail(fmt.Errorf("wal: write entry %d: %w", l.mu.nextIndex, err))
	}
	l.mu.nextIndex++
	l.lastLSN.Store(last)
	entry := uvarintLen(uint64(len(group))) + len(group)
	l.size.Add(int64(entry))
	// Mirror tidwall's segment cycling: it starts a new file before a write
	// when the tail is over size, and after one when the tail reaches size.
	// A new file's directory entry must be fsynced before we call it durable.
	if l.mu.tailBytes > l.segSz {
		l.mu.tailBytes, l.mu.dirDirty = 0, true
	}
	l.mu.tailBytes += entry
	if l.mu.tailBytes >= l.segSz {
		l.mu.tailBytes, l.mu.dirDirty = 0, true
	}
	return nil
}

func (l *Log) fail(err error) error {
	l.failed.CompareAndSwap(nil, &err)
	return *l.failed.Load()
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// Sync makes every appended group durable: an fsync of the tail segment and,
// when a segment file was created since the last Sync, of the directory.
// (tidwall fsyncs a finished segment itself when it moves to the next.)
// A failed Sync leaves the Log failed: after an fsync error the kernel may
// have dropped the dirty pages, so a retry could falsely succeed.
func (l *Log) Sync() error {
	if errp := l.failed.Load(); errp != nil {
		return *errp
	}
	l.mu.Lock()
	if l.mu.closed {
		l.mu.Unlock()
		return errors.New("wal: log closed")
	}
	dirDirty := l.mu.dirDirty
	l.mu.dirDirty = false
	l.mu.Unlock()
	if l.opts.BeforeSync != nil {
		if err := l.opts.BeforeSync(); err != nil {
			return l.fail(fmt.Errorf("wal: sync: %w", err))
		}
	}
	if err := l.tw.Sync(); err != nil {
		return l.fail(fmt.Errorf("wal: sync: %w", err))
	}
	if dirDirty {
		if err := syncDir(l.dir); err != nil {
			return l.fail(err)
		}
	}
	return nil
}

// LastLSN returns the highest LSN in the log, 0 if it is empty.
func (l *Log) LastLSN() uint64 { return l.lastLSN.Load() }

// AdvanceTo makes the next LSN follow lsn when the log ends below it: the
// records up to lsn are held elsewhere (the table store applied them), so
// the log must not hand their LSNs out again. Call before any append.
func (l *Log) AdvanceTo(lsn uint64) {
	if l.lastLSN.Load() < lsn {
		l.lastLSN.Store(lsn)
	}
}

// Size returns the bytes on disk of the log's segment files.
func (l *Log) Size() int64 { return l.size.Load() }

// Replay calls fn for every record with LSN > afterLSN, in LSN order. The
// payloads are fn's to keep. The records handed to fn must be exactly
// afterLSN+1, afterLSN+2, ...: a gap means lost log (a missing snapshot or
// segment) and is an error wrapping ErrCorrupt, as is any damaged entry.
// An error from fn stops the replay and is returned as is.
func (l *Log) Replay(afterLSN uint64, fn func(Record) error) error {
	first, last, err := l.bounds()
	if err != nil || first > last {
		return err
	}
	start, err := l.searchAfter(first, last, afterLSN)
	if err != nil {
		return l.describeDamage(err)
	}
	expect := afterLSN + 1
	var prev uint64
	for idx := start; idx <= last; idx++ {
		recs, err := l.readGroup(idx)
		if err != nil {
			return l.describeDamage(err)
		}
		for _, r := range recs {
			if r.LSN <= prev {
				return fmt.Errorf("%w: entry %d: lsn %d follows lsn %d", ErrCorrupt, idx, r.LSN, prev)
			}
			prev = r.LSN
			if r.LSN <= afterLSN {
				continue
			}
			if r.LSN != expect {
				return fmt.Errorf("%w: entry %d: lsn %d where lsn %d was expected (log gap)", ErrCorrupt, idx, r.LSN, expect)
			}
			expect++
			if err := fn(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// describeDamage turns a bad entry met by Replay (in an older segment:
// Open has checked the tail) into a *DamageError that names the file, the
// offset and what cutting there would lose.
func (l *Log) describeDamage(err error) error {
	rep, ierr := Inspect(l.dir)
	if ierr != nil || rep.Damage == nil {
		return err
	}
	return &DamageError{*rep.Damage}
}

// searchAfter returns the first index in [first, last] whose group's last
// LSN exceeds lsn, or last if there is none. Group LSNs grow with the index.
func (l *Log) searchAfter(first, last, lsn uint64) (uint64, error) {
	lo, hi := first, last
	for lo < hi {
		mid := lo + (hi-lo)/2
		recs, err := l.readGroup(mid)
		if err != nil {
			return 0, err
		}
		if recs[len(recs)-1].LSN > lsn {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, nil
}

// TruncateBefore drops leading entries whose records all have LSN <= lsn,
// once a durable snapshot covers them. It always keeps the last entry, even
// if the snapshot covers it too, so that LastLSN survives a reopen and LSNs
// keep growing after a restart (tidwall cannot hold an empty log that
// remembers its last index across Open in any useful way, and our LSNs are
// not tidwall indexes).
func (l *Log) TruncateBefore(lsn uint64) error {
	l.truncMu.Lock()
	defer l.truncMu.Unlock()
	first, last, err := l.bounds()
	if err != nil || first >= last {
		return err
	}
	keepFrom, err := l.searchAfter(first, last, lsn)
	if err != nil || keepFrom == first {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mu.closed {
		return errors.New("wal: log closed")
	}
	if err := l.tw.TruncateFront(keepFrom); err != nil {
		return fmt.Errorf("wal: truncate before entry %d: %w", keepFrom, err)
	}
	if err := syncDir(l.dir); err != nil {
		return err
	}
	segs, err := listSegments(l.dir)
	if err != nil {
		return err
	}
	l.recountSizeLocked(segs)
	return nil
}

// Close closes the log (tidwall fsyncs the tail on close).
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mu.closed {
		return nil
	}
	l.mu.closed = true
	if err := l.tw.Close(); err != nil {
		return fmt.Errorf("wal: close: %w", err)
	}
	if errp := l.failed.Load(); errp != nil {
		return *errp
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("wal: open dir for fsync: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("wal: fsync dir %s: %w", dir, err)
	}
	return nil
}
