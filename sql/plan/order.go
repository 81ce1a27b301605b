package plan

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/storage"
	"math"
	"sort"
)

// accessKind is how a step of a join finds its table's rows for each row
// of the tables before it.
type accessKind int

const (
	accessScan      accessKind = iota // every row, read once per statement
	accessPK                          // primary-key point lookup
	accessIndex                       // secondary-index lookup on all its columns
	accessHash                        // a hash of the table on the equality columns, built once per statement
	accessPKPrefix                    // the B-tree range of a value of the primary key's first column (a longer key)
	accessIdxPrefix                   // a secondary index's ordered side, by values of its first columns
)

// step is one table of a join in the order it is joined.
type step struct {
	t       int // position in Join.Tables (the FROM order)
	access  accessKind
	idx     int   // the secondary index for accessIndex
	keyCols []int // the table's columns the keys are equal to
	keys    []*expr.Expr
	filters []*expr.Expr // conditions first checkable here
	// gates are an outer join's ON parts first checkable here (in its
	// group): a row that passes them all to the group's last step is a
	// match; filters at that last step apply to the NULL row too.
	gates []*expr.Expr
	// group is the outer join whose NULL-extended side this step's table
	// is in (-1 none); first and last mark the group's first and last
	// steps, members its tables.
	group       int
	first, last bool
	members     tableSet
	// local are the conditions on this table alone, for a scan or a hash:
	// checked once per row of the table as it is read, not once per row
	// of the tables before it.
	local  []*expr.Expr
	checks int     // conditions a key does not already answer (EXPLAIN's "Using where")
	rows   float64 // estimated rows read per row of the tables before
	filter float64 // estimated fraction of them the filters keep (EXPLAIN's filtered)
}

// joinOrder is a join's chosen order and the table sizes it was chosen for.
type joinOrder struct {
	steps []step
	sizes []int
	// cost is the estimated rows read in all; prefix the rows coming out
	// of each step (EXPLAIN).
	cost float64
}

// Selectivities guessed for conditions the statistics do not measure, as
// classic optimizers do: an equality keeps a tenth, anything else a third.
const (
	eqSelectivity    = 0.1
	otherSelectivity = 1.0 / 3
)

// stats are what the planner knows of each table: its size and, per
// secondary index, its distinct keys. Both are kept by storage as rows
// change (the sizes of its maps), so they are always current and cost
// nothing to read.
type stats struct {
	rows     []float64
	distinct [][]float64 // per table, per index (0 for the primary key)
}

func readStats(tables []*storage.Table) (stats, []int) {
	st := stats{rows: make([]float64, len(tables)), distinct: make([][]float64, len(tables))}
	sizes := make([]int, len(tables))
	for i, t := range tables {
		sizes[i] = t.Len()
		st.rows[i] = math.Max(float64(sizes[i]), 1)
		st.distinct[i] = make([]float64, len(t.Def.Indexes))
		for k, ix := range t.Def.Indexes {
			if !ix.Primary {
				st.distinct[i][k] = math.Max(float64(t.IndexSize(k)), 1)
			}
		}
	}
	return st, sizes
}

// stale reports whether tables grew or shrank enough since the order was
// chosen for another order to be better: by half or double, past a few rows.
func (o *joinOrder) stale(sizes []int) bool {
	for i, n := range sizes {
		old := o.sizes[i]
		if n > 2*old+8 || old > 2*n+8 {
			return true
		}
	}
	return false
}

// choice is the best way to read table t after the tables in bound.
type choice struct {
	step
	probe float64 // cost of one probe (rows touched)
	build float64 // one-off cost (the hash's build)
	out   float64 // rows kept per probe, after filters
	used  []int   // conds placed here
}

// chooseOrder picks the join order greedily: at each point, of the tables
// allowed next, the one whose reading costs least and keeps fewest rows
// for the loops below, given the tables already joined. A LEFT JOIN's
// table keeps its place: the tables before it are joined first, those
// after it after it (its NULL row depends on all before).
func (jp *Join) chooseOrder(tables []*storage.Table) *joinOrder {
	st, sizes := readStats(tables)
	if len(jp.Tables) <= exhaustiveTables {
		return jp.searchOrder(st, sizes)
	}
	o := &joinOrder{sizes: sizes}
	var bound tableSet
	done := make([]bool, len(jp.conds))
	prefix := 1.0
	for len(o.steps) < len(jp.Tables) {
		var best *choice
		var bestScore float64
		for _, t := range jp.allowedNext(bound) {
			c := jp.estimate(t, bound, st, done)
			score := prefix*c.probe + c.build + prefix*c.out
			if best == nil || score < bestScore {
				best, bestScore = c, score
			}
		}
		prefix = jp.take(o, best, bound, done, prefix)
		bound |= one(best.t)
	}
	return o
}

// take appends the chosen step to o and returns the rows after it.
func (jp *Join) take(o *joinOrder, c *choice, bound tableSet, done []bool, prefix float64) float64 {
	for _, i := range c.used {
		done[i] = true
	}
	o.cost += prefix*c.probe + c.build
	if g := c.group; g >= 0 {
		c.members = jp.groups[g]
		c.first = bound&jp.groups[g] == 0
		c.last = jp.groups[g].subsetOf(bound | one(c.t))
	}
	o.steps = append(o.steps, c.step)
	return prefix * c.out
}

// exhaustiveTables is the size up to which every allowed order is costed
// (5! = 120 orders at most), rather than chosen greedily.
const exhaustiveTables = 5

// searchOrder costs every allowed order and keeps the cheapest: the rows
// read in all, plus the rows that come out (ties: the earlier found, which
// follows the FROM order).
func (jp *Join) searchOrder(st stats, sizes []int) *joinOrder {
	var best *joinOrder
	var bestScore float64
	var walk func(o *joinOrder, bound tableSet, done []bool, prefix float64)
	walk = func(o *joinOrder, bound tableSet, done []bool, prefix float64) {
		if best != nil && o.cost >= bestScore {
			return // already dearer
		}
		if len(o.steps) == len(jp.Tables) {
			if score := o.cost + prefix; best == nil || score < bestScore {
				best, bestScore = o, score
			}
			return
		}
		for _, t := range jp.allowedNext(bound) {
			c := jp.estimate(t, bound, st, done)
			next := &joinOrder{sizes: sizes, cost: o.cost, steps: append([]step(nil), o.steps...)}
			d := append([]bool(nil), done...)
			p := jp.take(next, c, bound, d, prefix)
			walk(next, bound|one(t), d, p)
		}
	}
	walk(&joinOrder{sizes: sizes}, 0, make([]bool, len(jp.conds)), 1)
	return best
}

// allowedNext lists the tables that may be joined next: those whose
// prerequisites (a LEFT JOIN's left side, STRAIGHT_JOIN's order) are in.
func (jp *Join) allowedNext(bound tableSet) []int {
	// A group begun is finished first: its tables' rows are NULL-extended
	// together.
	only := ^tableSet(0)
	for _, g := range jp.groups {
		if bound&g != 0 && !g.subsetOf(bound) {
			only = g
		}
	}
	var out []int
	for i, jt := range jp.Tables {
		if !bound.has(i) && only.has(i) && jt.after.subsetOf(bound) {
			out = append(out, i)
		}
	}
	return out
}

// complete says a condition on uses may be checked once with is joined:
// it reads no group not wholly in (a NULL-extended side's columns are
// known only once the whole side is).
func (jp *Join) complete(uses, with tableSet) bool {
	for _, g := range jp.groups {
		if uses&g != 0 && !g.subsetOf(with) {
			return false
		}
	}
	return true
}

// estimate costs reading table t after bound.
func (jp *Join) estimate(t int, bound tableSet, st stats, done []bool) *choice {
	jt := jp.Tables[t]
	def := jt.Table.Def
	n := st.rows[t]
	c := &choice{step: step{t: t, idx: -1, group: jt.group}}
	// Equalities with what is known: the key candidates.
	eq := map[int]*expr.Expr{}
	keyCond := map[int]int{} // column -> cond giving its key
	joinEq := map[int]bool{} // columns equal to other tables' values
	for ci, cd := range jp.conds {
		if cd.group != jt.group {
			continue // a NULL-extended table is found by its join's ON only
		}
		for _, e := range cd.eqs {
			if e.t == t && e.uses.subsetOf(bound) {
				if _, dup := eq[e.col]; !dup {
					eq[e.col], keyCond[e.col] = e.other, ci
				}
				if e.uses != 0 {
					joinEq[e.col] = true
				}
			}
		}
	}
	covers := func(cols []int) bool {
		for _, col := range cols {
			if eq[col] == nil {
				return false
			}
		}
		return len(cols) > 0
	}
	keyed := map[int]bool{} // conds the key already accounts for
	useKey := func(cols []int) {
		c.keyCols = append([]int(nil), cols...)
		c.keys = make([]*expr.Expr, len(cols))
		for i, col := range cols {
			c.keys[i] = eq[col]
			keyed[keyCond[col]] = true
		}
	}
	c.access, c.probe, c.rows = accessScan, n, n
	if pk := def.PrimaryKey(); covers(pk) {
		c.access, c.probe, c.rows = accessPK, 1, 1
		useKey(pk)
	} else {
		best := math.Inf(1)
		for k, ix := range def.Indexes {
			if ix.Primary || ix.UniquePrefix() || !covers(ix.Cols) {
				continue
			}
			fan := n / st.distinct[t][k]
			if ix.Unique {
				fan = 1
			}
			if fan < best {
				best, c.idx = fan, k
			}
		}
		pk := def.PrimaryKey()
		if c.idx >= 0 {
			c.access, c.probe, c.rows = accessIndex, 1+best, best
			useKey(def.Indexes[c.idx].Cols)
		} else if len(pk) > 1 && eq[pk[0]] != nil {
			c.access, c.rows = accessPKPrefix, math.Max(n*eqSelectivity, 1)
			c.probe = 1 + c.rows
			useKey(pk[:1])
		} else if k, cols := bestPrefix(def, eq); k >= 0 {
			c.access, c.idx, c.rows = accessIdxPrefix, k, math.Max(n*math.Pow(eqSelectivity, float64(len(cols))), 1)
			c.probe = 1 + c.rows
			useKey(cols)
		} else if len(joinEq) > 0 {
			// A hash on the columns other tables give (those equal to
			// constants are conditions checked as the table is read).
			cols := make([]int, 0, len(joinEq))
			for col := range joinEq {
				cols = append(cols, col)
			}
			sort.Ints(cols)
			c.access, c.rows = accessHash, n*math.Pow(eqSelectivity, float64(len(cols)))
			c.probe, c.build = 1+c.rows, n
			useKey(cols)
		}
	}
	// The conditions first checkable here.
	sel := 1.0
	withT := bound | one(t)
	for ci, cd := range jp.conds {
		if done[ci] || !cd.uses.subsetOf(withT) {
			continue
		}
		gate := cd.group >= 0
		if gate && cd.group != jt.group || !gate && !jp.complete(cd.uses, withT) {
			continue
		}
		c.used = append(c.used, ci)
		switch {
		case cd.uses == one(t) && cd.group == jt.group && (c.access == accessScan || c.access == accessHash):
			// On this table alone (its WHERE parts only when it is never
			// NULL-extended): checked as it is read.
			c.local = append(c.local, cd.e)
		case gate:
			c.gates = append(c.gates, cd.e)
		default:
			c.filters = append(c.filters, cd.e)
		}
		if keyed[ci] {
			continue
		}
		c.checks++
		if len(cd.eqs) > 0 {
			sel *= eqSelectivity
		} else {
			sel *= otherSelectivity
		}
	}
	c.filter = sel
	c.out = c.rows * sel
	if jt.Left {
		c.out = math.Max(c.out, 1) // a row with no match still goes on, NULL-extended
	}
	return c
}

// bestPrefix finds the secondary index with the most leading columns the
// equalities give (at least one): its position and those columns.
func bestPrefix(def *storage.TableDef, eq map[int]*expr.Expr) (int, []int) {
	best, bestCols := -1, []int(nil)
	for i, ix := range def.Indexes {
		if ix.Primary || ix.UniquePrefix() {
			continue
		}
		k := 0
		for k < len(ix.Cols) && eq[ix.Cols[k]] != nil {
			k++
		}
		if k > len(bestCols) {
			best, bestCols = i, ix.Cols[:k]
		}
	}
	return best, bestCols
}
