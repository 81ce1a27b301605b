package window

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sql/aggregate"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/query"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Window functions run after WHERE, GROUP BY and HAVING, over the rows
// (or groups) that remain: for each function the rows are sorted by its
// PARTITION BY and ORDER BY keys (stable), each partition is walked in
// that order and every row gets its value; the SELECT list and ORDER BY
// then read the values (expr.Ctx.Wins). Without an ORDER BY of its own
// the query returns its rows in the order of the last window's sort, as
// MariaDB's filesort leaves them.

// Values computes every window function of the set over n rows (or
// groups), at(i) making row i the current one in ec: wins[i] are row i's
// values, one per function, and order is the order the rows come out in
// (the last window's sort).
func (ws *Set) Values(ec *expr.Ctx, n int, at func(i int)) (wins [][]types.Value, order []int, err error) {
	wins = make([][]types.Value, n)
	for i := range wins {
		wins[i] = make([]types.Value, len(ws.Funcs))
	}
	if err := ec.Mem.Grow(int64(n) * int64(len(ws.Funcs)) * expr.ValueBytes); err != nil {
		return nil, nil, err
	}
	order = make([]int, n)
	for i := range order {
		order[i] = i
	}
	sorted := map[string][]int{} // SortKey -> the rows in that order
	for wi := range ws.Funcs {
		w := &ws.Funcs[wi]
		if order, err = computeWindow(ec, w, n, at, wins, wi, sorted[w.SortKey]); err != nil {
			return nil, nil, err
		}
		sorted[w.SortKey] = order
	}
	return wins, order, nil
}

// windowInput is one row's keys and arguments for a window function.
type windowInput struct {
	ctx   int
	part  []types.Value
	order []types.Value
	args  []types.Value
}

// computeWindow sets wins[*][wi] and returns the rows in its sort order;
// presorted is that order when an earlier window with the same PARTITION
// BY and ORDER BY found it.
func computeWindow(ec *expr.Ctx, w *Func, n int, at func(i int), wins [][]types.Value, wi int, presorted []int) ([]int, error) {
	in := make([]windowInput, n)
	np, no, na := len(w.Partition), len(w.Order), len(w.Args)
	// One backing array for every row's keys and arguments.
	flat := make([]types.Value, n*(np+no+na))
	eval := func(es []*expr.Expr, into []types.Value) error {
		for i, e := range es {
			v, err := e.Fn(ec)
			if err != nil {
				return err
			}
			into[i] = v
		}
		return nil
	}
	for i := range n {
		if err := ec.Poll(); err != nil {
			return nil, err
		}
		at(i)
		vals := flat[i*(np+no+na) : (i+1)*(np+no+na)]
		in[i] = windowInput{ctx: i, part: vals[:np], order: vals[np : np+no], args: vals[np+no:]}
		if err := eval(w.Partition, in[i].part); err != nil {
			return nil, err
		}
		if err := eval(w.Order, in[i].order); err != nil {
			return nil, err
		}
		if err := eval(w.Args, in[i].args); err != nil {
			return nil, err
		}
	}
	rows := make([]*windowInput, len(in))
	for i := range in {
		rows[i] = &in[i]
	}
	if presorted != nil {
		for i, c := range presorted {
			rows[i] = &in[c]
		}
	} else if np+no > 0 {
		err := query.SortStable(ec, rows, func(a, b *windowInput) bool {
			for k, v := range a.part {
				if c := types.Compare(v, b.part[k]); c != 0 {
					return c < 0
				}
			}
			for k, v := range a.order {
				if c := types.Compare(v, b.order[k]); c != 0 {
					return (c < 0) != w.Desc[k]
				}
			}
			return false
		})
		if err != nil {
			return nil, err
		}
	}
	order := make([]int, len(rows))
	for i, r := range rows {
		order[i] = r.ctx
	}
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && sameValues(rows[hi].part, rows[lo].part) {
			hi++
		}
		part := rows[lo:hi]
		vals, err := windowPartition(ec, w, part)
		if err != nil {
			return nil, err
		}
		for k, r := range part {
			wins[r.ctx][wi] = vals[k]
		}
		lo = hi
	}
	return order, nil
}

func sameValues(a, b []types.Value) bool {
	for i := range a {
		if types.Compare(a[i], b[i]) != 0 {
			return false
		}
	}
	return true
}

// windowPartition computes w for the rows of one partition, in order.
func windowPartition(ec *expr.Ctx, w *Func, part []*windowInput) ([]types.Value, error) {
	n := len(part)
	out := make([]types.Value, n)
	peer := func(a, b int) bool { return sameValues(part[a].order, part[b].order) }
	switch w.Name {
	case "row_number":
		for k := range part {
			out[k] = types.IntValue(int64(k + 1))
		}
		return out, nil
	case "rank", "dense_rank", "percent_rank":
		rank, dense := 0, 0
		for k := range part {
			if k == 0 || !peer(k-1, k) {
				rank, dense = k+1, dense+1
			}
			switch w.Name {
			case "rank":
				out[k] = types.IntValue(int64(rank))
			case "dense_rank":
				out[k] = types.IntValue(int64(dense))
			default:
				f := 0.0
				if n > 1 {
					f = float64(rank-1) / float64(n-1)
				}
				out[k] = ratio(f)
			}
		}
		return out, nil
	case "cume_dist":
		for k := 0; k < n; {
			end := k + 1
			for end < n && peer(k, end) {
				end++
			}
			for j := k; j < end; j++ {
				out[j] = ratio(float64(end) / float64(n))
			}
			k = end
		}
		return out, nil
	case "ntile":
		if n == 0 {
			return out, nil
		}
		buckets := part[0].args[0]
		if buckets.IsNull() || buckets.ToFloat() < 1 {
			return nil, sqlerr.New(sqlerr.ErInvalidNtileArgument, "Argument of NTILE must be greater than 0")
		}
		b := int(min(buckets.ToFloat(), float64(n)))
		size, extra := n/b, n%b
		k := 0
		for t := 1; t <= b; t++ {
			cnt := size
			if t <= extra {
				cnt++
			}
			for j := 0; j < cnt; j++ {
				out[k] = types.IntValue(int64(t))
				k++
			}
		}
		return out, nil
	case "lag", "lead":
		for k, r := range part {
			off := int64(1)
			if len(r.args) > 1 {
				if r.args[1].IsNull() {
					out[k] = types.Null
					continue
				}
				off = int64(r.args[1].ToFloat())
			}
			if w.Name == "lag" {
				off = -off
			}
			j := int64(k) + off
			switch {
			case j >= 0 && j < int64(n):
				out[k] = part[j].args[0]
			case len(r.args) > 2:
				out[k] = r.args[2]
			default:
				out[k] = types.Null
			}
		}
		return out, nil
	}
	return framed(ec, w, part, peer)
}

// framed computes the functions that read a frame: FIRST_VALUE,
// LAST_VALUE, NTH_VALUE and the aggregates. A frame that starts at the
// partition's first row grows as the rows advance, so its aggregate is
// carried along; any other is summed afresh for each row.
func framed(ec *expr.Ctx, w *Func, part []*windowInput, peer func(a, b int) bool) ([]types.Value, error) {
	n := len(part)
	out := make([]types.Value, n)
	bounds, err := frameBounds(ec, w, part, peer)
	if err != nil {
		return nil, err
	}
	var running aggregate.Acc
	added := 0
	for k := range part {
		if err := ec.Poll(); err != nil {
			return nil, err
		}
		lo, hi := bounds[k][0], bounds[k][1] // [lo, hi), maybe empty
		switch w.Name {
		case "first_value":
			if lo < hi {
				out[k] = part[lo].args[0]
			}
			continue
		case "last_value":
			if lo < hi {
				out[k] = part[hi-1].args[0]
			}
			continue
		case "nth_value":
			// Compared as a float first: a huge N is past every frame,
			// not an overflowing index.
			if nth := part[k].args[1]; !nth.IsNull() && nth.ToFloat() >= 1 && nth.ToFloat() <= float64(hi-lo) {
				out[k] = part[lo+int(nth.ToFloat())-1].args[0]
			}
			continue
		}
		if w.Frame.Start == UnboundedPreceding {
			for ; added < hi; added++ {
				if err := running.AddValue(w.Agg, part[added].args[0], ec.Mem); err != nil {
					return nil, err
				}
			}
			out[k] = running.Result(w.Agg, ec)
			continue
		}
		var acc aggregate.Acc
		for j := lo; j < hi; j++ {
			if err := acc.AddValue(w.Agg, part[j].args[0], ec.Mem); err != nil {
				return nil, err
			}
		}
		out[k] = acc.Result(w.Agg, ec)
	}
	return out, nil
}

// frameBounds is each row's frame as [lo, hi) within the partition.
func frameBounds(ec *expr.Ctx, w *Func, part []*windowInput, peer func(a, b int) bool) ([][2]int, error) {
	n := len(part)
	f := w.Frame
	offset := func(e *expr.Expr) (types.Value, error) {
		if e == nil {
			return types.Null, nil
		}
		return e.Fn(ec)
	}
	startN, err := offset(f.StartN)
	if err != nil {
		return nil, err
	}
	endN, err := offset(f.EndN)
	if err != nil {
		return nil, err
	}
	// peerLo[k], peerHi[k]: the first row of k's peers and one past the
	// last, found once per partition.
	peerLo, peerHi := make([]int, n), make([]int, n)
	for k := 0; k < n; {
		end := k + 1
		for end < n && peer(k, end) {
			end++
		}
		for j := k; j < end; j++ {
			peerLo[j], peerHi[j] = k, end
		}
		k = end
	}
	out := make([][2]int, n)
	for k := range part {
		var lo, hi int
		if f.Rows {
			lo = rowsBound(f.Start, startN, k, n)
			hi = rowsBound(f.End, endN, k, n) + 1
		} else {
			lo = rangeBound(w, f.Start, startN, part, k, peerLo, peerHi, true)
			hi = rangeBound(w, f.End, endN, part, k, peerLo, peerHi, false)
		}
		lo, hi = max(lo, 0), min(hi, n)
		if hi < lo {
			hi = lo
		}
		out[k] = [2]int{lo, hi}
	}
	return out, nil
}

// rowsBound is a ROWS bound's row index for row k.
func rowsBound(kind BoundKind, v types.Value, k, n int) int {
	// An offset past the partition reaches its end; a negative one (a
	// ? bound at run time) is the row itself.
	off := int(max(0, min(v.ToFloat(), float64(n))))
	switch kind {
	case UnboundedPreceding:
		return 0
	case Preceding:
		return k - off
	case CurrentRow:
		return k
	case Following:
		return k + off
	}
	return n - 1
}

// rangeBound is a RANGE bound for row k: as a start, the first row in
// the frame; as an end, one past the last. CURRENT ROW takes in the
// row's peers; n PRECEDING / FOLLOWING the rows whose ORDER BY value is
// within n of the row's (in the direction of the sort).
func rangeBound(w *Func, kind BoundKind, v types.Value, part []*windowInput, k int, peerLo, peerHi []int, start bool) int {
	n := len(part)
	switch kind {
	case UnboundedPreceding:
		return 0
	case UnboundedFollowing:
		return n
	case CurrentRow:
		if start {
			return peerLo[k]
		}
		return peerHi[k]
	}
	key := part[k].order[0]
	if key.IsNull() {
		// NULLs are peers of each other only.
		return rangeBound(w, CurrentRow, v, part, k, peerLo, peerHi, start)
	}
	delta := v.ToFloat()
	if kind == Preceding {
		delta = -delta
	}
	if w.Desc[0] {
		delta = -delta
	}
	target := key.ToFloat() + delta
	// in sort direction: asc rows have growing keys.
	within := func(j int) int { // -1 before target, 0 at, 1 after
		kj := part[j].order[0]
		if kj.IsNull() {
			// NULLs sort first ascending, last descending, and are in
			// no non-NULL row's range.
			if w.Desc[0] {
				return 1
			}
			return -1
		}
		d := kj.ToFloat() - target
		if w.Desc[0] {
			d = -d
		}
		switch {
		case d < 0:
			return -1
		case d > 0:
			return 1
		}
		return 0
	}
	if start {
		j := 0
		for j < n && within(j) < 0 {
			j++
		}
		return j
	}
	j := n
	for j > 0 && within(j-1) > 0 {
		j--
	}
	return j
}

// ratio is PERCENT_RANK's and CUME_DIST's value: MariaDB gives them ten
// decimals (its DOUBLE(17,10)), so they print as 0.5000000000.
func ratio(f float64) types.Value {
	d, _ := types.FloatValue(f).ToDecimal()
	r := new(apd.Decimal)
	types.DecimalContext.Quantize(r, d, -10)
	return types.DecimalValue(r)
}
