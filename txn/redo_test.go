package txn

import (
	"encoding/binary"
	"testing"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// redoOf encodes a one-row put the way encodeRedo does.
func redoOf(tableID uint64, id int64, v string) []byte {
	b := binary.AppendUvarint(nil, 1)
	b = binary.AppendUvarint(b, tableID)
	b = append(b, opPut)
	b = types.AppendRow(b, []types.Value{types.IntValue(id)})
	return types.AppendRow(b, []types.Value{types.IntValue(id), types.StringValue(v)})
}

func chunk(txnID uint64, part []byte) []byte {
	return append(binary.AppendUvarint(nil, txnID), part...)
}

// TestReplayerChunks: a chunked commit applies exactly its own chunks;
// an earlier lifetime's orphan chunks under the same transaction id (a
// crash between chunks and commit) are never mixed in.
func TestReplayerChunks(t *testing.T) {
	cat := storage.NewCatalog()
	tab, _ := cat.AddTable(&storage.TableDef{ID: 1, DB: "test", Name: "t",
		Columns: []storage.Column{{Name: "id", Type: types.ColType{Base: types.TInt}}, {Name: "v", Type: types.ColType{Base: types.TVarchar, Length: 10}}},
		Indexes: []storage.IndexDef{{Name: "PRIMARY", Cols: []int{0}, Primary: true, Unique: true}}})
	r := &Replayer{Catalog: cat}
	orphan := redoOf(1, 1, "orphan")
	if err := r.Chunk(3, chunk(5, orphan[:4])); err != nil { // never committed
		t.Fatal(err)
	}
	good := redoOf(1, 2, "good")
	if err := r.Chunk(10, chunk(5, good[:5])); err != nil {
		t.Fatal(err)
	}
	if err := r.Chunk(11, chunk(7, []byte("another txn's chunk"))); err != nil {
		t.Fatal(err)
	}
	if err := r.Chunk(12, chunk(5, good[5:])); err != nil {
		t.Fatal(err)
	}
	commit := binary.AppendUvarint(binary.AppendUvarint(nil, 5), 10)
	if err := r.ChunkedCommit(13, commit); err != nil {
		t.Fatal(err)
	}
	rows := tab.CommittedRows(storage.Newest)
	if len(rows) != 1 || rows[0].Vals[1].String() != "good" {
		t.Fatalf("rows after replay: %v, want only (2, good)", rows)
	}
	if err := r.ChunkedCommit(14, binary.AppendUvarint(binary.AppendUvarint(nil, 9), 13)); err == nil {
		t.Fatal("a commit record naming chunks that are not in the log was accepted")
	}
}
