package kv

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// NewWriteBatch starts a batch that only writes (Get is not available):
// a bulk copy's, cheaper than NewBatch's indexed one.
func (s *Store) NewWriteBatch() *Batch { return &Batch{s: s, b: s.db.NewBatch()} }

// CommitPart commits the batch without writing the store's applied LSN:
// one part of a larger write that a later log record names (a rebuild's
// copy of rows into the key space of a table not created yet). It may
// run beside the applier: writing the applied LSN here could put back
// an older one than the applier's last batch wrote.
func (b *Batch) CommitPart() error {
	if err := b.b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("writing the table store: %w", err)
	}
	b.Close()
	return nil
}
