package plan

import (
	"slices"

	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// indexOrder is an ORDER BY ... LIMIT served by an index: the primary
// key's B-tree (idx -1) or a secondary index's ordered side is read in
// order (backwards for DESC) and reading stops at the LIMIT + OFFSET-th
// row that passes the filter, so neither the rest of the table is
// filtered nor anything sorted but those rows.
type indexOrder struct {
	idx           int
	desc          bool
	limit, offset *expr.Expr
	// unordered: no ORDER BY, only a LIMIT (ServeLimit); the primary
	// key's order is the scan's own.
	unordered bool
}

// count evaluates LIMIT + OFFSET; ok is false when they are not row
// counts (the statement's own LIMIT check reports that). LIMIT 0 is 0:
// no row is read.
func (o *indexOrder) count(ec *expr.Ctx) (int, bool, error) {
	lv, err := o.limit.Fn(ec)
	if err != nil {
		return 0, false, err
	}
	n, ok := expr.RowCountArg(lv)
	if ok && n == 0 {
		return 0, true, nil // whatever the offset
	}
	if ok && o.offset != nil {
		ov, err := o.offset.Fn(ec)
		if err != nil {
			return 0, false, err
		}
		var off int
		off, ok = expr.RowCountArg(ov)
		n += off
		if n < 0 { // overflow: no limit that matters
			return 0, false, nil
		}
	}
	if !ok {
		return 0, false, nil
	}
	return n, true, nil
}

// ServeOrder reads rows in the order of ORDER BY cols (all ASC or all
// DESC), stopping after LIMIT + OFFSET of them pass, when an index gives
// that order for the access chosen: a scan or a primary-key range (the
// primary key, or a secondary index whose columns start with cols), or an
// index prefix whose remaining columns are cols (equal leading columns
// may be named too). It reports whether it does.
func (a *Access) ServeOrder(cols []int, desc bool, limit, offset *expr.Expr) bool {
	if len(cols) == 0 || limit == nil || a.PK != nil || a.InList != nil || a.Uniq != nil || a.PKPrefix {
		return false
	}
	def := a.t.Def
	startsWith := func(ixCols []int, skip int) bool {
		// cols may repeat the equal leading columns, then go on in order.
		i := 0
		for i < len(cols) && i < skip && cols[i] == ixCols[i] {
			i++
		}
		if i < len(cols) && i < skip {
			i = 0 // not the leading columns: they must follow the prefix
		}
		rest := ixCols[skip:]
		if i == 0 {
			return len(cols) <= len(rest) && slices.Equal(cols, rest[:len(cols)])
		}
		return len(cols)-i <= len(rest) && slices.Equal(cols[i:], rest[:len(cols)-i])
	}
	o := &indexOrder{idx: -2, desc: desc, limit: limit, offset: offset}
	switch {
	case a.IdxScan >= 0:
		if a.IdxLo != nil || a.IdxHi != nil {
			// A range on the next column: ordered by it and what follows.
			if !startsWith(def.Indexes[a.IdxScan].Cols, len(a.IdxEq)) {
				return false
			}
		} else if !startsWith(def.Indexes[a.IdxScan].Cols, len(a.IdxEq)) {
			return false
		}
		o.idx = a.IdxScan
	default:
		if pk := def.PrimaryKey(); pk != nil && len(cols) <= len(pk) && slices.Equal(cols, pk[:len(cols)]) {
			o.idx = -1
		} else if a.Lo == nil && a.Hi == nil {
			for i, ix := range def.Indexes {
				if !ix.Primary && !ix.UniquePrefix() && len(cols) <= len(ix.Cols) && slices.Equal(cols, ix.Cols[:len(cols)]) {
					o.idx = i
					break
				}
			}
		}
	}
	if o.idx == -2 {
		return false
	}
	a.order = o
	return true
}

// ServeLimit stops a scan or a primary-key range (rows read in primary
// key order, which is the order a statement without ORDER BY returns them
// in) after the first LIMIT + OFFSET rows that pass the filter; the other
// paths (key lookups, index reads, whose rows are sorted by primary key
// after the reading) read all. It reports whether it does.
func (a *Access) ServeLimit(limit, offset *expr.Expr) bool {
	if limit == nil || a.order != nil || a.PK != nil || a.InList != nil || a.Uniq != nil || a.IdxScan >= 0 {
		return false
	}
	a.order = &indexOrder{idx: -1, limit: limit, offset: offset, unordered: true}
	return true
}

// findOrdered reads the rows in order until max pass; done is false when
// a key value is of another type (the caller reads the long way).
func (a *Access) findOrdered(x *txn.Txn, ec *expr.Ctx, lock bool, match func(*storage.Row) (RowRef, bool, error), check func(*storage.Row) error, out *[]RowRef, max int) (bool, error) {
	t := ec.TableOf(a.t)
	o := a.order
	if o.idx == -1 {
		var lo, hi *types.Value
		if a.Lo != nil || a.Hi != nil {
			var empty bool
			var err error
			if lo, hi, empty, err = a.bounds(ec); err != nil || empty {
				return true, err
			}
		}
		read := a.scanRows
		if o.desc {
			read = a.lastRows
		}
		refs, err := read(x, ec, lo, hi, lock, match, max)
		*out = refs
		return true, err
	}
	var entries []storage.IndexEntry
	idx := o.idx
	if a.IdxScan >= 0 {
		cols := t.Def.Indexes[a.IdxScan].Cols
		vals, ok, err := KeyValues(ec, t, cols[:len(a.IdxEq)], a.IdxEq)
		if err == errNotAKey {
			return false, nil
		}
		if err != nil || !ok {
			return true, err
		}
		var lo, hi *types.Value
		if len(a.IdxEq) < len(cols) {
			var empty bool
			if lo, hi, empty, err = boundsOf(ec, t.Def, cols[len(a.IdxEq)], a.IdxLo, a.IdxHi); err != nil || empty {
				return true, err
			}
		}
		entries = t.IndexEntries(a.IdxScan, vals, lo, hi)
	} else {
		entries = t.IndexEntries(idx, nil, nil, nil)
	}
	if o.desc {
		slices.Reverse(entries)
	}
	cols := t.Def.Indexes[idx].Cols
	seen := map[*storage.Row]bool{}
	for _, e := range entries {
		if len(*out) >= max {
			break
		}
		if err := ec.Poll(); err != nil {
			return true, err
		}
		if seen[e.Row] {
			continue
		}
		ref, ok, err := match(e.Row)
		if err != nil {
			return true, err
		}
		// Only where the version read sits: an older or newer version's
		// place in the order is not this row's.
		if !ok || !atEntry(ref.Vals, cols, e.Vals) {
			continue
		}
		seen[e.Row] = true
		*out = append(*out, ref)
	}
	return true, nil
}

// lastRows is scanRows backwards: the last max rows within [lo, hi] the
// filter accepts, last first. The scan reads forwards, so it reads the
// whole range; it keeps the last max matches (with lock, every match as
// last committed, since one that no longer matches once locked gives its
// place to the one before it), never every row.
func (a *Access) lastRows(x *txn.Txn, ec *expr.Ctx, lo, hi *types.Value, lock bool, match func(*storage.Row) (RowRef, bool, error), max int) ([]RowRef, error) {
	var last []storage.ScanItem
	err := a.eachMatch(x, ec, lo, hi, func(it storage.ScanItem) (bool, error) {
		if !lock && len(last) == 2*max {
			last = append(last[:0], last[max:]...)
		}
		last = append(last, it)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	var out []RowRef
	for i := len(last) - 1; i >= 0 && len(out) < max; i-- {
		ref, ok, err := a.keep(last[i], lock, match)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, ref)
		}
	}
	return out, nil
}

func atEntry(vals []types.Value, cols []int, at []types.Value) bool {
	for i, c := range cols {
		if types.Compare(vals[c], at[i]) != 0 || vals[c].IsNull() != at[i].IsNull() {
			return false
		}
	}
	return true
}

// OrderIndexName names the index ServeOrder reads in order ("" if none).
func (a *Access) OrderIndexName() string {
	switch {
	case a.order == nil || a.order.unordered:
		return ""
	case a.order.idx < 0:
		return "PRIMARY"
	}
	return a.t.Def.Indexes[a.order.idx].Name
}

// OrderIndexCols are that index's columns.
func (a *Access) OrderIndexCols() []int {
	switch {
	case a.order == nil || a.order.unordered:
		return nil
	case a.order.idx < 0:
		return a.t.Def.PrimaryKey()
	}
	return a.t.Def.Indexes[a.order.idx].Cols
}
