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
	// Ref names what each key column is equal to: a column or "const".
	Ref      []string
	Rows     float64 // estimated rows read per row of the tables before
	Filtered float64 // estimated percentage the conditions keep
	Filters  int     // conditions checked at this table
	Left     bool
	// First is whether this is the first table read (Extra differs).
	First bool
}

// Steps returns the join's current plan.
func (jp *Join) Steps() []StepInfo {
	o := jp.currentOrder()
	out := make([]StepInfo, len(o.steps))
	for i, st := range o.steps {
		jt := jp.Tables[st.t]
		def := jt.Table.Def
		si := StepInfo{Table: jt.Table, Alias: jt.Alias, Rows: st.rows, Filtered: st.filter * 100, Filters: len(st.filters), Left: jt.Left, First: i == 0, KeyCols: st.keyCols}
		if jt.on != nil {
			si.Filters++
		}
		allConst := true
		for _, k := range st.keys {
			if k.IsConst {
				si.Ref = append(si.Ref, "const")
			} else {
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
		case accessHash:
			si.Access, si.Key = "hash_ALL", "#hash#"
		}
		out[i] = si
	}
	return out
}
