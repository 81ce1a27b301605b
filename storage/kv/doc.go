// Package kv is where plrun's table data lives on disk: a pebble database
// (github.com/cockroachdb/pebble/v2) run with its own WAL disabled, because
// plrun's log (package wal) is the only write-ahead log.
//
// Keys (every integer big-endian, so keys sort by table, then by key):
//
//	'r' dataID pk                  a row: uvarint commit LSN + types.AppendRow(values)
//	'i' dataID index(2) vals pk    a secondary-index entry (empty value)
//	'm' name [dataID]              metadata: the applied LSN, the format, the
//	                               catalog header, per-table row counts and
//	                               AUTO_INCREMENT high-water marks
//
// pk and vals are types.AppendKey encodings (order-preserving and
// self-delimiting), so a primary-key range or an index prefix is one
// pebble iterator range.
//
// The invariant of the apply/flush/truncate protocol (txn/applier.go): a
// batch holds the writes of whole log records, in LSN order, together with
// the applied-LSN key for the last of them, so whatever pebble has made
// durable is the state after some prefix of the log, and says which one.
// plrun's log is never truncated past the applied LSN read back after a
// Flush: what pebble had only in its memtables is still in the log.
//
// Format: the 'm' format key says which data folder format wrote the
// store (Format). Open reads it first with pebble opened read-only
// (ReadFormat), so a folder a newer plrun wrote is refused
// (ErrNewerFormat) before a byte of it changes: a writable open would
// rewrite pebble's MANIFEST and OPTIONS. A store without the key is new,
// or one an upgrade was filling when it stopped (the engine fills it again).
//
// Concurrency: a Store is safe for concurrent use. Batches are built and
// committed by one goroutine (the applier); readers use Get and iterators,
// which see a consistent point-in-time view each.
package kv
