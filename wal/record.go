package wal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// Kind says what a record's payload is. The codec does not interpret it
// beyond rejecting the zero value; the engine's recovery decides what to do
// with each kind.
type Kind uint8

const (
	// KindCommit is a transaction's redo, written as its commit record.
	KindCommit Kind = 1
	// KindDDL is a schema change.
	KindDDL Kind = 2
	// KindChunk is a piece of a large transaction's redo, written before
	// its commit record (invariant 7). Recovery applies chunks only when the
	// commit record that closes them is present and intact.
	KindChunk Kind = 3
	// KindChunkedCommit is the commit record of a transaction whose redo
	// went out as KindChunk records: it names the transaction, and its
	// chunks, in LSN order, are its redo.
	KindChunkedCommit Kind = 4
)

// Record is one logged item. LSN order is commit order is replay order
// (invariant 1).
type Record struct {
	LSN     uint64
	Kind    Kind
	Payload []byte
}

// ErrCorrupt is wrapped by every error caused by bytes that fail framing or
// checksum verification: a record, a log entry or a snapshot.
var ErrCorrupt = errors.New("wal: corrupt record")

// Frame layout, all integers little-endian:
//
//	[0:4)   payload length (uint32)
//	[4:8)   CRC-32C (Castagnoli) over bytes [0:4) ++ [8:17) ++ payload
//	[8:16)  LSN (uint64)
//	[16]    kind
//	[17:)   payload
//
// The checksum covers every byte of the frame except itself, so a flipped
// length, LSN or kind is caught just like a flipped payload byte.
const frameHeaderSize = 17

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// AppendRecord appends r's frame to dst and returns the extended slice. A
// commit group is the concatenation of its records' frames.
func AppendRecord(dst []byte, r Record) []byte {
	if uint64(len(r.Payload)) > math.MaxUint32 {
		panic(fmt.Sprintf("wal: record payload of %d bytes exceeds the 4 GiB frame limit (lsn %d)", len(r.Payload), r.LSN))
	}
	start := len(dst)
	var hdr [frameHeaderSize]byte
	binary.LittleEndian.PutUint32(hdr[0:4], uint32(len(r.Payload)))
	binary.LittleEndian.PutUint64(hdr[8:16], r.LSN)
	hdr[16] = byte(r.Kind)
	dst = append(dst, hdr[:]...)
	dst = append(dst, r.Payload...)
	binary.LittleEndian.PutUint32(dst[start+4:start+8], frameChecksum(dst[start:]))
	return dst
}

// frameChecksum computes the CRC of a complete frame (header and payload).
func frameChecksum(frame []byte) uint32 {
	crc := crc32.Update(0, castagnoli, frame[0:4])
	return crc32.Update(crc, castagnoli, frame[8:])
}

// DecodeRecords decodes a commit group. The returned payloads alias buf.
//
// A group is valid only if every frame is complete, every checksum matches,
// no kind is zero, and LSNs are non-zero and strictly increasing; anything
// else is an error wrapping ErrCorrupt. An empty buf is an empty group.
// DecodeRecords never panics, whatever buf holds, and a buf it accepts is
// exactly the concatenation of AppendRecord of the returned records.
func DecodeRecords(buf []byte) ([]Record, error) {
	var recs []Record
	var prevLSN uint64
	for off := 0; off < len(buf); {
		rest := buf[off:]
		if len(rest) < frameHeaderSize {
			return nil, fmt.Errorf("%w: truncated frame header at offset %d (%d bytes left)", ErrCorrupt, off, len(rest))
		}
		n := uint64(binary.LittleEndian.Uint32(rest[0:4]))
		if n > uint64(len(rest)-frameHeaderSize) {
			return nil, fmt.Errorf("%w: frame at offset %d claims %d payload bytes, %d left", ErrCorrupt, off, n, len(rest)-frameHeaderSize)
		}
		frame := rest[:frameHeaderSize+int(n)]
		if got, want := frameChecksum(frame), binary.LittleEndian.Uint32(frame[4:8]); got != want {
			return nil, fmt.Errorf("%w: checksum mismatch at offset %d (computed %08x, stored %08x)", ErrCorrupt, off, got, want)
		}
		r := Record{
			LSN:     binary.LittleEndian.Uint64(frame[8:16]),
			Kind:    Kind(frame[16]),
			Payload: frame[frameHeaderSize:len(frame):len(frame)],
		}
		if r.Kind == 0 {
			return nil, fmt.Errorf("%w: zero kind at lsn %d", ErrCorrupt, r.LSN)
		}
		if r.LSN <= prevLSN {
			return nil, fmt.Errorf("%w: lsn %d follows lsn %d in one group", ErrCorrupt, r.LSN, prevLSN)
		}
		prevLSN = r.LSN
		recs = append(recs, r)
		off += len(frame)
	}
	return recs, nil
}

// groupLSNRange walks the frame headers of a group written by this process
// (so already well formed) and returns its first and last LSN without
// verifying checksums. ok is false if the framing does not parse.
func groupLSNRange(group []byte) (first, last uint64, ok bool) {
	for off := 0; off < len(group); {
		rest := group[off:]
		if len(rest) < frameHeaderSize {
			return 0, 0, false
		}
		n := uint64(binary.LittleEndian.Uint32(rest[0:4]))
		if n > uint64(len(rest)-frameHeaderSize) {
			return 0, 0, false
		}
		lsn := binary.LittleEndian.Uint64(rest[8:16])
		if lsn <= last {
			return 0, 0, false
		}
		if first == 0 {
			first = lsn
		}
		last = lsn
		off += frameHeaderSize + int(n)
	}
	return first, last, first != 0
}
