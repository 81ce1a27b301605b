package wal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Entry is one tidwall entry (one commit group) as it lies in a segment
// file: uvarint(length) ++ group, at Offset, End bytes in.
type Entry struct {
	Offset, End       int64
	FirstLSN, LastLSN uint64
}

// Segment is one segment file and the intact entries at its start.
type Segment struct {
	Path    string
	Size    int64
	Entries []Entry
	// BadOffset is where the first entry that does not parse as an intact
	// group starts (Size when there is none), and BadReason says why.
	BadOffset int64
	BadReason string
}

// Torn describes a torn last write: bytes after the last intact entry of
// the tail segment, with no intact entry after them. Only the last,
// unsynced write can be torn, so they are cut.
type Torn struct {
	Segment string
	Offset  int64 // where the cut is
	Bytes   int64 // how many bytes were (or would be) cut
	Reason  string
}

func (t *Torn) String() string {
	return fmt.Sprintf("%s at offset %d: %d bytes (%s)", t.Segment, t.Offset, t.Bytes, t.Reason)
}

// Damage describes a bad entry that intact entries follow: bytes that were
// written, synced and later changed. Cutting there would lose commits that
// were acknowledged, so Open refuses the log instead.
type Damage struct {
	Segment string
	Offset  int64
	Reason  string
	// IntactThrough is the last LSN before the damage; LostFirst..LostLast
	// are the LSNs of the intact entries after it (so at least those would
	// be lost by cutting there).
	IntactThrough       uint64
	LostFirst, LostLast uint64
	// Followed says whether intact entries follow the damage; if not, the
	// bytes after the last intact entry are not what an unfinished write
	// leaves (a bit flipped in a complete last entry, garbage), and
	// LostFirst..LostLast is only the bad entry's first LSN.
	Followed bool
	// Cut lists what TruncateDamaged removes: the rest of Segment from
	// Offset, and every later segment file.
	Later []string
}

// DamageError is returned by Open and Replay for a damaged log; it wraps
// ErrDamaged and ErrCorrupt.
type DamageError struct{ Damage }

// ErrDamaged is wrapped by the error for a log whose damage is not a torn
// tail.
var ErrDamaged = errors.New("wal: log damaged")

func (e *DamageError) Error() string {
	d := e.Damage
	why := fmt.Sprintf("intact commits follow it (lsn %d..%d)", d.LostFirst, d.LostLast)
	if !d.Followed {
		why = "and the bytes from there on are not what an unfinished write leaves (a short entry or zeros)"
	}
	return fmt.Sprintf("wal: log damaged in %s at offset %d (%s); %s, "+
		"so this is not a torn last write. Cutting the log there would lose lsn %d..%d, which may have been acknowledged, "+
		"so plrun does not do it by itself: restore the data directory from a backup, or accept the loss with "+
		"`plrun recover --data %[7]s --truncate-damaged` (`plrun recover --data %[7]s` shows what it would drop)",
		d.Segment, d.Offset, d.Reason, why, d.IntactThrough+1, d.LostLast, dataDirOf(d.Segment))
}

// dataDirOf is the data directory of a segment file: the engine keeps its
// log in <data>/wal.
func dataDirOf(segment string) string { return filepath.Dir(filepath.Dir(segment)) }

func (e *DamageError) Unwrap() []error { return []error{ErrDamaged, ErrCorrupt} }

// Report is what Inspect finds in a log directory.
type Report struct {
	Segments []Segment
	LastLSN  uint64  // last LSN of the intact entries before any damage or tear
	Torn     *Torn   // a torn tail (cut by Open), or nil
	Damage   *Damage // damage (refused by Open), or nil
}

// Inspect reads every segment file in dir, without tidwall, and classifies
// what follows the first bad entry: nothing intact after it in the tail
// segment is a torn tail; an intact entry after it anywhere, or a bad entry
// in an older segment (synced whole before the next was started), is
// damage.
func Inspect(dir string) (*Report, error) {
	segs, err := listSegments(dir)
	if err != nil {
		return nil, err
	}
	return inspectSegments(segs)
}

func inspectSegments(segs []segmentFile) (*Report, error) {
	rep := &Report{}
	for i, sf := range segs {
		data, err := os.ReadFile(sf.path)
		if err != nil {
			return nil, fmt.Errorf("wal: read segment: %w", err)
		}
		seg := scanSegment(sf.path, data, rep.LastLSN)
		rep.Segments = append(rep.Segments, seg)
		if n := len(seg.Entries); n > 0 {
			rep.LastLSN = seg.Entries[n-1].LastLSN
		}
		if seg.BadOffset == seg.Size {
			continue
		}
		first, last, found := findIntact(data, int(seg.BadOffset)+1, rep.LastLSN)
		for _, later := range segs[i+1:] {
			ldata, err := os.ReadFile(later.path)
			if err != nil {
				return nil, fmt.Errorf("wal: read segment: %w", err)
			}
			if f, l, ok := findIntact(ldata, 0, rep.LastLSN); ok {
				if !found {
					first, found = f, true
				}
				last = l
			}
		}
		if !found && i == len(segs)-1 && tornShape(data, int(seg.BadOffset)) {
			rep.Torn = &Torn{Segment: sf.path, Offset: seg.BadOffset, Bytes: seg.Size - seg.BadOffset, Reason: seg.BadReason}
			return rep, nil
		}
		if !found {
			// Nothing intact follows, but the bytes are not what an
			// unfinished write leaves: at least the bad entry is lost.
			first, last = rep.LastLSN+1, rep.LastLSN+1
		}
		d := &Damage{Segment: sf.path, Offset: seg.BadOffset, Reason: seg.BadReason,
			IntactThrough: rep.LastLSN, LostFirst: first, LostLast: last, Followed: found}
		for _, later := range segs[i+1:] {
			d.Later = append(d.Later, later.path)
		}
		rep.Damage = d
		return rep, nil
	}
	return rep, nil
}

// scanSegment parses entries from the start of data until the first that
// is not an intact group following prevLSN.
func scanSegment(path string, data []byte, prevLSN uint64) Segment {
	seg := Segment{Path: path, Size: int64(len(data)), BadOffset: int64(len(data))}
	for off := 0; off < len(data); {
		first, last, next, err := parseEntry(data, off, prevLSN)
		if err != nil {
			seg.BadOffset, seg.BadReason = int64(off), err.Error()
			return seg
		}
		seg.Entries = append(seg.Entries, Entry{Offset: int64(off), End: int64(next), FirstLSN: first, LastLSN: last})
		prevLSN, off = last, next
	}
	return seg
}

// parseEntry parses the tidwall entry at off: a uvarint length, then a
// non-empty, intact group whose LSNs follow prevLSN.
func parseEntry(data []byte, off int, prevLSN uint64) (first, last uint64, next int, err error) {
	n, w := binary.Uvarint(data[off:])
	switch {
	case w <= 0:
		return 0, 0, 0, errors.New("unreadable entry length")
	case n == 0:
		return 0, 0, 0, errors.New("empty entry (zero fill?)")
	case n > uint64(len(data)-off-w):
		return 0, 0, 0, fmt.Errorf("entry claims %d bytes, %d remain in the file", n, len(data)-off-w)
	}
	end := off + w + int(n)
	if !plausibleFrame(data[off+w:end], prevLSN) {
		return 0, 0, 0, errors.New("group does not start with a record frame")
	}
	recs, err := DecodeRecords(data[off+w : end])
	if err != nil {
		return 0, 0, 0, err
	}
	if recs[0].LSN <= prevLSN {
		return 0, 0, 0, fmt.Errorf("group starts at lsn %d, not after lsn %d", recs[0].LSN, prevLSN)
	}
	return recs[0].LSN, recs[len(recs)-1].LSN, end, nil
}

// plausibleFrame is a cheap check of a group's first frame header before
// its checksum is computed, so that scanning garbage byte by byte stays
// linear: the frame fits, its kind is known and its LSN follows prevLSN.
func plausibleFrame(group []byte, prevLSN uint64) bool {
	if len(group) < frameHeaderSize {
		return false
	}
	n := uint64(binary.LittleEndian.Uint32(group[0:4]))
	lsn := binary.LittleEndian.Uint64(group[8:16])
	kind := Kind(group[16])
	return n <= uint64(len(group)-frameHeaderSize) && lsn > prevLSN && lsn-prevLSN <= maxLSNJump &&
		kind >= KindCommit && kind <= KindChunkedCommit
}

// tornShape reports whether the bytes from off to the end of the tail
// segment look like the last write, unfinished: an entry whose length runs
// past the end of the file (the write was cut short), bytes that are all
// zero (the file was extended but the data never reached the disk), or an
// entry that ends exactly at the end of the file with a whole zero page in
// it (a page of the write that never reached the disk). Anything else —
// a flipped bit in a complete last entry, an entry that ends before the
// file does, garbage — is damage, even with nothing intact after it.
func tornShape(data []byte, off int) bool {
	rest := data[off:]
	if allZero(rest) {
		return true
	}
	n, w := binary.Uvarint(rest)
	if w <= 0 || n == 0 {
		return false
	}
	end := uint64(off+w) + n
	switch {
	case end > uint64(len(data)):
		return true
	case end < uint64(len(data)):
		return false
	}
	const page = 4096
	for p := (off + page - 1) / page * page; p+page <= len(data); p += page {
		if allZero(data[p : p+page]) {
			return true
		}
	}
	return false
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// maxLSNJump bounds how far past the last intact LSN a scanned frame's LSN
// may be: real LSNs are gap-free, and random bytes almost never land in
// the window, which keeps Inspect from checksumming garbage.
const maxLSNJump = 1 << 32

// findIntact looks, at every byte offset from from on, for a run of intact
// entries (LSNs after prevLSN) that either reaches the end of data exactly
// or holds at least two entries. A lone group-shaped run that stops short
// of the end can be a coincidence inside a torn write's own bytes (a
// payload byte that happens to read as a length); a run that is the rest
// of the file, or two entries back to back, is not. It returns the run's
// first LSN and the last LSN of the last intact entry in data.
func findIntact(data []byte, from int, prevLSN uint64) (first, last uint64, ok bool) {
	for o := from; o < len(data); o++ {
		f, l, next, err := parseEntry(data, o, prevLSN)
		if err != nil {
			continue
		}
		count, end, runLast := 1, next, l
		for end < len(data) {
			_, l2, n2, err := parseEntry(data, end, runLast)
			if err != nil {
				break
			}
			count, end, runLast = count+1, n2, l2
		}
		if end != len(data) && count < 2 {
			continue
		}
		// The last intact entry of the file, for the range that would be
		// lost: keep scanning past a further bad spot, if any.
		last = runLast
		if end < len(data) {
			if _, l3, ok3 := findIntact(data, end+1, runLast); ok3 {
				last = l3
			}
		}
		return f, last, true
	}
	return 0, 0, false
}

// cutAt truncates path at off and fsyncs it.
func cutAt(path string, off int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("wal: cut %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	if err := f.Truncate(off); err != nil {
		return fmt.Errorf("wal: cut %s: %w", filepath.Base(path), err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("wal: cut %s: %w", filepath.Base(path), err)
	}
	return f.Close()
}

// TruncateDamaged cuts a damaged log at its damage: the damaged segment is
// truncated where the damage starts and every later segment is removed, so
// the log ends at rep.Damage.IntactThrough. It is the operator's deliberate
// acceptance of the loss (`plrun recover --truncate-damaged`); Open never
// does it.
func TruncateDamaged(dir string, d *Damage) error {
	if d == nil {
		return nil
	}
	if err := cutAt(d.Segment, d.Offset); err != nil {
		return err
	}
	for _, p := range d.Later {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("wal: remove %s: %w", filepath.Base(p), err)
		}
	}
	return syncDir(dir)
}
