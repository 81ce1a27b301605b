package kv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// Format is the data folder format this binary writes. A folder marked
// with a newer one is refused, never misread.
const Format = 2

// ErrNewerFormat is returned by Open for a folder a newer plrun wrote.
var ErrNewerFormat = errors.New("the data folder was written by a newer plrun")

// Store is one pebble database holding every table's rows and indexes.
type Store struct {
	db      *pebble.DB
	dir     string
	applied atomic.Uint64 // the applied LSN of the last committed batch
	flushed atomic.Uint64 // the applied LSN the last Flush made durable
}

// Options configure Open.
type Options struct {
	// CacheBytes is pebble's block cache.
	CacheBytes int64
	// Logger receives pebble's own messages (nil: discarded).
	Logger *slog.Logger
	// OnFlushBegin, when set, runs as pebble starts writing a memtable to
	// disk (tests kill the process there).
	OnFlushBegin func()
}

// Open opens (creating if need be) the store in dir.
func Open(dir string, o Options) (*Store, error) {
	if err := CheckFormat(dir); err != nil {
		return nil, err
	}
	cache := pebble.NewCache(max(o.CacheBytes, 1<<20))
	defer cache.Unref()
	lg := o.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	opts := &pebble.Options{
		Cache:              cache,
		DisableWAL:         true,
		FormatMajorVersion: pebble.FormatNewest,
		Logger:             pebbleLogger{lg.With("component", "pebble")},
		MemTableSize:       32 << 20,
	}
	if o.OnFlushBegin != nil {
		opts.EventListener = &pebble.EventListener{FlushBegin: func(pebble.FlushInfo) { o.OnFlushBegin() }}
	}
	opts.EnsureDefaults()
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bloomPolicy
	}
	db, err := pebble.Open(dir, opts)
	if err != nil {
		return nil, fmt.Errorf("opening the table store %s: %w", dir, err)
	}
	s := &Store{db: db, dir: dir}
	if f, ok, err := s.getUint(keyFormat); err != nil {
		db.Close()
		return nil, err
	} else if ok && f > Format {
		db.Close()
		return nil, newerFormatError(f)
	}
	a, _, err := s.getUint(keyApplied)
	if err != nil {
		db.Close()
		return nil, err
	}
	s.applied.Store(a)
	s.flushed.Store(a)
	return s, nil
}

// Close closes the store without flushing: what is only in memtables is
// dropped, as a crash would (the log still holds it). Call Flush first
// for a clean shutdown.
func (s *Store) Close() error { return s.db.Close() }

// Initialized reports whether the store has been given its format (a
// data folder of this format, not a new or an old-format one).
func (s *Store) Initialized() (bool, error) {
	_, ok, err := s.getUint(keyFormat)
	return ok, err
}

// Applied is the LSN of the last log record applied (in memtables or on
// disk).
func (s *Store) Applied() uint64 { return s.applied.Load() }

// Flushed is the applied LSN the last Flush made durable (at open: the
// one found on disk).
func (s *Store) Flushed() uint64 { return s.flushed.Load() }

// Flush makes everything applied so far durable and returns its applied
// LSN: the log may then be truncated up to it, not further.
func (s *Store) Flush() (uint64, error) {
	a := s.applied.Load()
	if err := s.db.Flush(); err != nil {
		return 0, fmt.Errorf("flushing the table store: %w", err)
	}
	if a > s.flushed.Load() {
		s.flushed.Store(a)
	}
	return a, nil
}

// Get returns a copy of the value at key (ok false: absent).
func (s *Store) Get(key []byte) (val []byte, ok bool, err error) {
	v, closer, err := s.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading the table store: %w", err)
	}
	val = append([]byte(nil), v...)
	closer.Close()
	return val, true, nil
}

// NewIter iterates the keys in [lower, upper) (upper nil: to the end).
func (s *Store) NewIter(lower, upper []byte) (*pebble.Iterator, error) {
	return s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
}

// Catalog returns the catalog header stored with the last applied DDL
// (nil: none yet).
func (s *Store) Catalog() ([]byte, error) {
	v, _, err := s.Get(keyCatalog)
	return v, err
}

// Count is the stored row count of dataID (as of the applied LSN).
func (s *Store) Count(dataID uint64) (int64, error) {
	n, _, err := s.getUint(metaKey("count", dataID))
	return int64(n), err
}

// AutoInc is the highest AUTO_INCREMENT value applied for dataID.
func (s *Store) AutoInc(dataID uint64) (uint64, error) {
	n, _, err := s.getUint(metaKey("autoinc", dataID))
	return n, err
}

func (s *Store) getUint(key []byte) (uint64, bool, error) {
	v, ok, err := s.Get(key)
	if err != nil || !ok {
		return 0, ok, err
	}
	n, k := binary.Uvarint(v)
	if k <= 0 {
		return 0, false, fmt.Errorf("table store: malformed value at %q", key)
	}
	return n, true, nil
}

// Metrics is pebble's own report (SHOW ENGINE PLRUN STATUS).
func (s *Store) Metrics() string { return s.db.Metrics().String() }

// Memory is what pebble holds outside the Go heap: its block cache and
// its memtables (the mutable one, those queued for flushing, and zombies
// an iterator still reads).
func (s *Store) Memory() (blockCache, memtables int64) {
	m := s.db.Metrics()
	return m.BlockCache.Size, int64(m.MemTable.Size + m.MemTable.ZombieSize)
}

// DiskUsage is the store's size on disk in bytes.
func (s *Store) DiskUsage() uint64 { return s.db.Metrics().DiskSpaceUsage() }

// CopyFlushed writes a copy of the store as it is on disk (what a crash
// now would leave, without what only memtables hold) into dir, which
// must not exist (pebble's checkpoint: hard links where it can).
func (s *Store) CopyFlushed(dir string) error {
	if err := s.db.Checkpoint(dir); err != nil {
		return fmt.Errorf("copying the table store: %w", err)
	}
	return nil
}
