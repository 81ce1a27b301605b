package wal

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Snapshot file layout, integers little-endian:
//
//	header  [0:8) magic "PLRSNAP1", [8:16) LSN
//	body    whatever the write callback produced
//	trailer [0:8) body length, [8:12) CRC-32C over header ++ body ++ body length
//
// The file is named snapshot-<20-digit LSN>.plr; that name cannot be taken
// for a tidwall segment (those are exactly 20 digits), so snapshots may share
// the log's directory.
const (
	snapshotMagic       = "PLRSNAP1"
	snapshotHeaderSize  = 16
	snapshotTrailerSize = 12
	snapshotPrefix      = "snapshot-"
	snapshotSuffix      = ".plr"
	snapshotTmpSuffix   = ".tmp"
)

func snapshotName(lsn uint64) string {
	return fmt.Sprintf("%s%020d%s", snapshotPrefix, lsn, snapshotSuffix)
}

// parseSnapshotName returns the LSN of a snapshot file name.
func parseSnapshotName(name string) (uint64, bool) {
	if !strings.HasPrefix(name, snapshotPrefix) || !strings.HasSuffix(name, snapshotSuffix) {
		return 0, false
	}
	digits := name[len(snapshotPrefix) : len(name)-len(snapshotSuffix)]
	if len(digits) != 20 {
		return 0, false
	}
	lsn, err := strconv.ParseUint(digits, 10, 64)
	return lsn, err == nil
}

// WriteSnapshot writes a checkpoint of the state as of lsn: to a temporary
// file, fsynced, renamed into place, directory fsynced. Only then are older
// snapshots (and leftover temporary files) removed. lsn must not be below
// the latest existing snapshot's.
func WriteSnapshot(dir string, lsn uint64, write func(w io.Writer) error) (err error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("wal: snapshot dir: %w", err)
	}
	existing, err := listSnapshots(dir)
	if err != nil {
		return err
	}
	if n := len(existing); n > 0 && existing[n-1] > lsn {
		return fmt.Errorf("wal: snapshot at lsn %d is older than the existing one at lsn %d", lsn, existing[n-1])
	}
	final := filepath.Join(dir, snapshotName(lsn))
	tmp := final + snapshotTmpSuffix
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o640)
	if err != nil {
		return fmt.Errorf("wal: create snapshot: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(f, 1<<20)
	var hdr [snapshotHeaderSize]byte
	copy(hdr[:8], snapshotMagic)
	binary.LittleEndian.PutUint64(hdr[8:], lsn)
	mw := io.MultiWriter(bw, crc)
	if _, err := mw.Write(hdr[:]); err != nil {
		return fmt.Errorf("wal: write snapshot: %w", err)
	}
	body := &countingWriter{w: mw}
	if err := write(body); err != nil {
		return fmt.Errorf("wal: write snapshot body: %w", err)
	}
	var trailer [snapshotTrailerSize]byte
	binary.LittleEndian.PutUint64(trailer[:8], uint64(body.n))
	crc.Write(trailer[:8])
	binary.LittleEndian.PutUint32(trailer[8:], crc.Sum32())
	if _, err := bw.Write(trailer[:]); err != nil {
		return fmt.Errorf("wal: write snapshot: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("wal: write snapshot: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("wal: fsync snapshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("wal: close snapshot: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("wal: install snapshot: %w", err)
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	return removeOldSnapshots(dir, lsn)
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// listSnapshots returns the LSNs of the complete snapshot files, ascending.
func listSnapshots(dir string) ([]uint64, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("wal: list snapshots: %w", err)
	}
	var lsns []uint64
	for _, de := range des {
		if lsn, ok := parseSnapshotName(de.Name()); ok && !de.IsDir() {
			lsns = append(lsns, lsn)
		}
	}
	return lsns, nil // names sort by LSN
}

func removeOldSnapshots(dir string, keep uint64) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("wal: list snapshots: %w", err)
	}
	removed := false
	for _, de := range des {
		name := de.Name()
		lsn, ok := parseSnapshotName(name)
		stale := (ok && lsn < keep) ||
			(strings.HasPrefix(name, snapshotPrefix) && strings.HasSuffix(name, snapshotSuffix+snapshotTmpSuffix))
		if !stale {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("wal: remove old snapshot: %w", err)
		}
		removed = true
	}
	if removed {
		return syncDir(dir)
	}
	return nil
}

// OpenLatestSnapshot opens the newest snapshot in dir. With none, it returns
// lsn 0, a nil reader and a nil error. The whole file's checksum is verified
// before the reader is handed out (a first pass over the file; the reader is
// a second pass over the same immutable file), so a damaged snapshot is an
// error wrapping ErrCorrupt rather than a half-applied state. The caller
// closes r.
func OpenLatestSnapshot(dir string) (lsn uint64, r io.ReadCloser, err error) {
	lsns, err := listSnapshots(dir)
	if err != nil || len(lsns) == 0 {
		return 0, nil, err
	}
	lsn = lsns[len(lsns)-1]
	path := filepath.Join(dir, snapshotName(lsn))
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, fmt.Errorf("wal: open snapshot: %w", err)
	}
	bodyLen, err := verifySnapshot(f, lsn)
	if err != nil {
		f.Close()
		return 0, nil, fmt.Errorf("wal: snapshot %s: %w", filepath.Base(path), err)
	}
	return lsn, &snapshotReader{SectionReader: io.NewSectionReader(f, snapshotHeaderSize, bodyLen), f: f}, nil
}

// verifySnapshot checks the header, trailer and checksum of a snapshot file
// and returns its body length.
func verifySnapshot(f *os.File, lsn uint64) (int64, error) {
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := info.Size()
	if size < snapshotHeaderSize+snapshotTrailerSize {
		return 0, fmt.Errorf("%w: snapshot of %d bytes is shorter than its framing", ErrCorrupt, size)
	}
	var hdr [snapshotHeaderSize]byte
	if _, err := f.ReadAt(hdr[:], 0); err != nil {
		return 0, err
	}
	if string(hdr[:8]) != snapshotMagic || binary.LittleEndian.Uint64(hdr[8:]) != lsn {
		return 0, fmt.Errorf("%w: bad snapshot header", ErrCorrupt)
	}
	var trailer [snapshotTrailerSize]byte
	if _, err := f.ReadAt(trailer[:], size-snapshotTrailerSize); err != nil {
		return 0, err
	}
	bodyLen := int64(binary.LittleEndian.Uint64(trailer[:8]))
	if bodyLen != size-snapshotHeaderSize-snapshotTrailerSize {
		return 0, fmt.Errorf("%w: snapshot body length %d does not match file size %d", ErrCorrupt, bodyLen, size)
	}
	var crc hash.Hash32 = crc32.New(castagnoli)
	if _, err := io.Copy(crc, io.NewSectionReader(f, 0, size-4)); err != nil {
		return 0, err
	}
	if got, want := crc.Sum32(), binary.LittleEndian.Uint32(trailer[8:]); got != want {
		return 0, fmt.Errorf("%w: snapshot checksum mismatch (computed %08x, stored %08x)", ErrCorrupt, got, want)
	}
	return bodyLen, nil
}

type snapshotReader struct {
	*io.SectionReader
	f *os.File
}

func (s *snapshotReader) Close() error { return s.f.Close() }

// RemoveTempSnapshots removes the temporary files of checkpoints that did
// not finish (a crash between create and rename) and returns their names.
// Call it only while no checkpoint can run (at open, under the data
// directory's lock).
func RemoveTempSnapshots(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("wal: list %s: %w", dir, err)
	}
	var removed []string
	for _, de := range des {
		name := de.Name()
		if de.IsDir() || !strings.HasPrefix(name, snapshotPrefix) || !strings.HasSuffix(name, snapshotTmpSuffix) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, fmt.Errorf("wal: remove %s: %w", name, err)
		}
		removed = append(removed, name)
	}
	if len(removed) > 0 {
		return removed, syncDir(dir)
	}
	return nil, nil
}

// SnapshotPath is the file of the snapshot at lsn in dir (the error log
// and SHOW ENGINE PLRUN STATUS name its size after a checkpoint).
func SnapshotPath(dir string, lsn uint64) string { return filepath.Join(dir, snapshotName(lsn)) }

// RemoveSnapshots removes every snapshot in dir (a data folder whose
// tables moved into the table store) and returns their names.
func RemoveSnapshots(dir string) ([]string, error) {
	lsns, err := listSnapshots(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, lsn := range lsns {
		p := SnapshotPath(dir, lsn)
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return names, fmt.Errorf("wal: remove snapshot: %w", err)
		}
		names = append(names, filepath.Base(p))
	}
	if len(names) > 0 {
		if err := syncDir(dir); err != nil {
			return names, err
		}
	}
	return names, nil
}
