package plan

import "github.com/plrun/plrun/storage"

// StepInfo describes one table of a join as it is read, in join order,
// for EXPLAIN.
type StepInfo struct {
	Table *storage.Table
	Alias string
	// Access is MySQL's join type: ALL (scan), eq_ref (primary or unique
	// key from the tables before), ref (non-unique index), const (unique
	// key equal to constants), hash_ALL (hash join on equality columns).
	Access  string
	Key     string // the index used, "" for none
	KeyCols []int  // the table's columns the key is on
	// Ref names what each key column is equal to: db.table.column,
	// "const" (a constant, or a column of a table read as const) or
	// "func" (an expression).
	Ref []string
	// PossibleKeys are the indexes an equality on their first column
	// could use, whatever the order.
	PossibleKeys []string
	Rows         float64 // estimated rows read per row of the tables before
	Filtered     float64 // estimated percentage the conditions keep
	Filters      int     // conditions checked at this table
	Left         bool
	// First is whether this is the first table read (Extra differs).
	First bool
}

// Steps returns the join's current plan.
func (jp *Join) Steps() []StepInfo {
	o := jp.currentOrder(nil)
	out := make([]StepInfo, len(o.steps))
	var constTables tableSet
	for i, st := range o.steps {
		jt := jp.Tables[st.t]
		def := jt.Table.Def
		si := StepInfo{Table: jt.Table, Alias: jt.Alias, Rows: st.rows, Filtered: st.filter * 100, Filters: st.checks, Left: jt.Left, First: i == 0, KeyCols: st.keyCols}
		si.PossibleKeys = jp.possibleKeys(st.t)
		allConst := true
		for _, k := range st.keys {
			switch {
			case k.IsConst:
				si.Ref = append(si.Ref, "const")
			case k.Source != nil && k.Col >= 0 && constTables.has(jp.index[k.Source]):
				si.Ref = append(si.Ref, "const")
			case k.Source != nil && k.Col >= 0:
				allConst = false
				si.Ref = append(si.Ref, k.Source.Table.Def.DB+"."+k.Source.Alias+"."+k.Source.Table.Def.Columns[k.Col].Name)
			default:
				allConst = false
				si.Ref = append(si.Ref, "func")
			}
		}
		switch st.access {
		case accessScan:
			si.Access = "ALL"
		case accessPK:
			si.Access, si.Key = "eq_ref", "PRIMARY"
			if allConst && !jt.Left {
				si.Access = "const"
			}
		case accessIndex:
			ix := def.Indexes[st.idx]
			si.Access, si.Key = "ref", ix.Name
			if ix.Unique {
				si.Access = "eq_ref"
				if allConst && !jt.Left {
					si.Access = "const"
				}
			}
		case accessIdxPrefix:
			si.Access, si.Key = "ref", def.Indexes[st.idx].Name
		case accessPKPrefix:
			si.Access, si.Key = "ref", "PRIMARY"
		case accessHash:
			// As MariaDB prints its hash join (join_cache_level >= 3): the
			// rows are the table's, every one hashed.
			si.Access, si.Key, si.Rows = "hash_ALL", "#hash#$hj", float64(jt.Table.Len())
			si.Filters = max(si.Filters, 1) // the equalities are checked on the rows the hash finds
		}
		if si.Access == "ref" && !allConst {
			// InnoDB reports an index's selectivity twice as good as it
			// measures it (ha_innobase::info), and MariaDB prints that.
			si.Rows = max(si.Rows/2, 1)
		}
		if si.Access == "const" {
			constTables |= one(st.t)
		}
		out[i] = si
	}
	return out
}

// possibleKeys names table t's indexes whose first column some equality
// gives, from constants or from another table.
func (jp *Join) possibleKeys(t int) []string {
	first := map[int]bool{}
	for _, cd := range jp.conds {
		if cd.group != jp.Tables[t].group {
			continue
		}
		for _, e := range cd.eqs {
			if e.t == t {
				first[e.col] = true
			}
		}
	}
	var out []string
	for _, ix := range jp.Tables[t].Table.Def.Indexes {
		if len(ix.Cols) > 0 && first[ix.Cols[0]] {
			if ix.Primary {
				out = append(out, "PRIMARY")
			} else {
				out = append(out, ix.Name)
			}
		}
	}
	return out
}
