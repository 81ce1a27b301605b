package wal

import (
	"bytes"
	"errors"
	"testing"
)

func testGroup(first uint64, n int) []byte {
	var g []byte
	for i := 0; i < n; i++ {
		lsn := first + uint64(i)
		g = AppendRecord(g, Record{LSN: lsn, Kind: KindCommit, Payload: bytes.Repeat([]byte{byte(lsn)}, int(lsn%7))})
	}
	return g
}

func TestRecordRoundTrip(t *testing.T) {
	in := []Record{
		{LSN: 1, Kind: KindCommit, Payload: []byte("insert t1")},
		{LSN: 2, Kind: KindDDL, Payload: nil},
		{LSN: 7, Kind: KindChunk, Payload: bytes.Repeat([]byte("x"), 70000)},
	}
	var g []byte
	for _, r := range in {
		g = AppendRecord(g, r)
	}
	out, err := DecodeRecords(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("decoded %d records, want %d", len(out), len(in))
	}
	for i := range in {
		if out[i].LSN != in[i].LSN || out[i].Kind != in[i].Kind || !bytes.Equal(out[i].Payload, in[i].Payload) {
			t.Fatalf("record %d: got %+v want %+v", i, out[i], in[i])
		}
	}
}

func TestDecodeRecordsRejectsDamage(t *testing.T) {
	g := testGroup(1, 3)
	for i := range g {
		bad := bytes.Clone(g)
		bad[i] ^= 0x40
		if _, err := DecodeRecords(bad); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("flipping byte %d: err = %v, want ErrCorrupt", i, err)
		}
	}
	boundary := map[int]bool{}
	for i := 1; i <= 3; i++ {
		boundary[len(testGroup(1, i))] = true
	}
	for n := 1; n < len(g); n++ {
		_, err := DecodeRecords(g[:n])
		if boundary[n] != (err == nil) || (err != nil && !errors.Is(err, ErrCorrupt)) {
			t.Fatalf("truncated to %d bytes (frame boundary %t): err = %v", n, boundary[n], err)
		}
	}
	// Records out of LSN order are a damaged group even with good CRCs.
	swapped := AppendRecord(AppendRecord(nil, Record{LSN: 5, Kind: KindCommit}), Record{LSN: 4, Kind: KindCommit})
	if _, err := DecodeRecords(swapped); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("out-of-order lsns: err = %v, want ErrCorrupt", err)
	}
	if _, err := DecodeRecords(AppendRecord(nil, Record{LSN: 1, Kind: 0})); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("zero kind: err = %v, want ErrCorrupt", err)
	}
}

func FuzzDecodeRecords(f *testing.F) {
	f.Add([]byte{})
	f.Add(testGroup(1, 1))
	f.Add(testGroup(1, 5))
	f.Add(testGroup(1<<40, 3))
	f.Add(AppendRecord(nil, Record{LSN: 9, Kind: KindChunk, Payload: bytes.Repeat([]byte{0xff}, 300)}))
	g := testGroup(1, 4)
	f.Add(g[:len(g)-3])
	f.Fuzz(func(t *testing.T, buf []byte) {
		recs, err := DecodeRecords(buf)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		var again []byte
		for _, r := range recs {
			again = AppendRecord(again, r)
		}
		if !bytes.Equal(again, buf) {
			t.Fatalf("re-encoding %d records gives %x, input was %x", len(recs), again, buf)
		}
	})
}
