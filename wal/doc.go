// Package wal is plrun's redo log: the record format, the append-only log of
// commit groups on top of github.com/tidwall/wal, and the recovery reader;
// and the snapshot files of the data folder format before the table store,
// which are read only to upgrade such a folder.
//
// # Layout
//
//	record  = frame{len, CRC-32C, LSN, kind, payload}       (AppendRecord / DecodeRecords)
//	group   = record ++ record ++ ...                       (one tidwall entry; one write)
//	log     = tidwall segments 00000000000000000001, ...   (uvarint(len(group)) ++ group)
//	snapshot-<LSN>.plr = magic, LSN, body, length, CRC-32C (WriteSnapshot / OpenLatestSnapshot)
//
// Recovery is Replay(appliedLSN, apply) after the LSN the table store
// (storage/kv) holds (DESIGN.md invariant 6); a checkpoint is the store's
// flush, then TruncateBefore the LSN it flushed, never past it. The engine
// applies a transaction only when its commit record is delivered; KindChunk
// records are held until their commit record comes.
//
// Snapshots are no longer the checkpoint format: tables live in the table
// store. An old folder (snapshot-<LSN>.plr beside the log) is upgraded at its
// first open: OpenLatestSnapshot, Replay(snapshotLSN, apply), the rows
// written into a new store, flushed and marked, and only then
// RemoveSnapshots. WriteSnapshot is kept for tests that build such folders.
//
// # Invariants
//
//   - LSNs are non-zero and strictly increasing within a group and across
//     groups; Replay further checks they are gap-free after afterLSN, so a
//     lost segment is an error, never a silently shorter state.
//   - Every record is checksummed over all its bytes. A group whose checksum
//     fails is never applied.
//   - Torn tail versus damage (inspect.go). Only the last, unsynced write
//     can be torn. Open reads the tail segment itself (not through
//     tidwall) and, at the first entry that is not an intact group, looks
//     past it at every byte offset for intact entries. If any follow, the
//     log is damaged, not torn, and Open refuses it with a *DamageError
//     naming the file, the offset and the LSNs cutting would lose. If none
//     follow and the bytes are what an unfinished write leaves (an entry
//     running past the end of the file, zeros, or a complete last entry
//     with a whole zero page), they are a torn tail: cut on disk, and
//     reported to Options.Logf. Anything else (a flipped bit in a complete
//     last entry, garbage) is damage too. A bad entry in an older segment
//     (synced whole before the next one began) is always damage, reported
//     by Replay. Only the operator cuts damage: Inspect + TruncateDamaged
//     (`plrun recover --truncate-damaged`). A flipped bit that lengthens
//     the very last entry's length prefix cannot be told from a short
//     write, and is cut as one.
//   - After any write or sync error the Log is failed (fail-stop, invariant
//     5): every later AppendGroup and Sync returns that error. An fsync is
//     never retried, since the kernel may have dropped the dirty pages.
//   - AppendGroup does not fsync (tidwall runs with NoSync). Sync fsyncs the
//     tail segment, and the directory when a segment file was created since
//     the last Sync. Snapshots (WriteSnapshot) are written to a temporary
//     file, fsynced, renamed, and the directory fsynced before older
//     snapshots are removed; RemoveSnapshots fsyncs the directory after.
//   - TruncateBefore always keeps the last group, so LastLSN after a reopen
//     is never below an LSN already handed out.
//   - A truncation killed midway is finished by the next Open: tidwall's
//     open completes a START (END) segment it finds, and Open first
//     removes the temporary file tidwall writes before that segment
//     exists (<segment>.START.TEMP, .END.TEMP: never part of the log),
//     which tidwall would leave in the folder for good
//     (truncleftover.go).
//
// # Concurrency and lock order
//
// One goroutine (the commit pipeline's writer) calls AppendGroup and Sync.
// LastLSN and Size are atomic loads, callable anywhere. TruncateBefore may run
// beside AppendGroup and Sync; Replay must not run beside TruncateBefore
// (recovery runs before the pipeline starts). Lock order inside a Log:
// truncMu, then mu, then tidwall's internal lock. Sync holds no Log lock
// while it fsyncs, but tidwall holds its own lock, so a Sync and a write of
// the same Log never overlap.
package wal
