package kv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/cockroachdb/pebble/v2"
)

// ReadFormat reads the format marker of the store in dir without changing
// a byte of it (pebble opened read-only: a writable open rewrites its
// MANIFEST and OPTIONS files, which a newer plrun's folder must be spared).
// ok is false for a folder without a store or a store without a marker (a
// new one, or one whose upgrade did not finish).
func ReadFormat(dir string) (format uint64, ok bool, err error) {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return 0, false, nil
	}
	db, err := pebble.Open(dir, &pebble.Options{ReadOnly: true, Logger: pebbleLogger{slog.New(slog.DiscardHandler)}})
	if errors.Is(err, pebble.ErrDBDoesNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("reading the format of the table store %s: %w", dir, err)
	}
	defer db.Close()
	v, closer, err := db.Get(keyFormat)
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("reading the format of the table store %s: %w", dir, err)
	}
	defer closer.Close()
	f, n := binary.Uvarint(v)
	if n <= 0 {
		return 0, false, fmt.Errorf("table store %s: malformed format marker %x", dir, v)
	}
	return f, true, nil
}

// CheckFormat refuses (ErrNewerFormat) the store in dir if a newer plrun
// marked it, before anything in it is written.
func CheckFormat(dir string) error {
	f, ok, err := ReadFormat(dir)
	if err != nil {
		return err
	}
	if ok && f > Format {
		return newerFormatError(f)
	}
	return nil
}

func newerFormatError(f uint64) error {
	return fmt.Errorf("%w: format %d, this binary reads up to %d (run a newer plrun)", ErrNewerFormat, f, Format)
}

// MarkFormat sets the format marker of the closed store in dir to f, as a
// plrun of format f would have left it: for tests of folders of another
// format (a newer one must be refused, not misread).
func MarkFormat(dir string, f uint64) error {
	db, err := pebble.Open(dir, &pebble.Options{DisableWAL: true, FormatMajorVersion: pebble.FormatNewest,
		Logger: pebbleLogger{slog.New(slog.DiscardHandler)}})
	if err != nil {
		return err
	}
	if err := db.Set(keyFormat, binary.AppendUvarint(nil, f), pebble.NoSync); err != nil {
		db.Close()
		return err
	}
	if err := db.Flush(); err != nil {
		db.Close()
		return err
	}
	return db.Close()
}
