// Package wal is plrun's redo log: the record format, the append-only log of
// commit groups on top of github.com/tidwall/wal, checkpoint snapshots, and
// the recovery reader.
//
// # Layout
//
//	record  = frame{len, CRC-32C, LSN, kind, payload}       (AppendRecord / DecodeRecords)
//	group   = record ++ record ++ ...                       (one tidwall entry; one write)
//	log     = tidwall segments 00000000000000000001, ...   (uvarint(len(group)) ++ group)
//	snapshot-<LSN>.plr = magic, LSN, body, length, CRC-32C (WriteSnapshot / OpenLatestSnapshot)
//
// Recovery is OpenLatestSnapshot, then Replay(snapshotLSN, apply) (DESIGN.md
// invariant 6). The engine applies a transaction only when its commit record
// is delivered; KindChunk records are held until their commit record comes.
//
// # Invariants
//
//   - LSNs are non-zero and strictly increasing within a group and across
//     groups; Replay further checks they are gap-free after afterLSN, so a
//     lost snapshot or segment is an error, never a silently shorter state.
//   - Every record is checksummed over all its bytes. A group whose checksum
//     fails is never applied.
//   - Open cuts a torn tail on disk: a partial last tidwall entry, and any
//     trailing entries of the tail segment that are not intact groups (bad
//     CRC, zero fill, garbage). Damage anywhere earlier is an error: from
//     Open for the tail segment, from Replay for older segments.
//   - After any write or sync error the Log is failed (fail-stop, invariant
//     5): every later AppendGroup and Sync returns that error. An fsync is
//     never retried, since the kernel may have dropped the dirty pages.
//   - AppendGroup does not fsync (tidwall runs with NoSync). Sync fsyncs the
//     tail segment, and the directory when a segment file was created since
//     the last Sync. Snapshots are written to a temporary file, fsynced,
//     renamed, and the directory fsynced before older snapshots are removed.
//   - TruncateBefore always keeps the last group, so LastLSN after a reopen
//     is never below an LSN already handed out.
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
