package tablelock

import (
	"testing"

	"github.com/plrun/plrun/sql/parse"
)

// TestTxnConflicts: what an open transaction used holds back LOCK TABLES
// as MariaDB's metadata locks do: WRITE against any use, READ against a
// write; a table it did not use holds back nothing.
func TestTxnConflicts(t *testing.T) {
	read := tableSet{"d.t": false}
	wrote := tableSet{"d.t": true}
	cases := []struct {
		held  *tableSet
		spec  parse.LockSpec
		block bool
	}{
		{&read, parse.LockSpec{Schema: "d", Name: "T", Write: true}, true},
		{&read, parse.LockSpec{Schema: "d", Name: "t"}, false},
		{&wrote, parse.LockSpec{Schema: "d", Name: "t"}, true},
		{&wrote, parse.LockSpec{Schema: "D", Name: "t", Write: true}, true},
		{&wrote, parse.LockSpec{Schema: "d", Name: "u", Write: true}, false},
		{nil, parse.LockSpec{Schema: "d", Name: "t", Write: true}, false},
	}
	for _, c := range cases {
		if got := txnConflicts([]parse.LockSpec{c.spec}, c.held); got != c.block {
			t.Errorf("held %v, lock %+v: blocked %v, want %v", c.held, c.spec, got, c.block)
		}
	}
	// covers: a read holds for reads only, a write for both.
	if !read.covers("d.t", false) || read.covers("d.t", true) || !wrote.covers("d.t", true) || (*tableSet)(nil).covers("d.t", false) {
		t.Error("covers")
	}
}
