package storage

import (
	"strconv"
	"strings"

	"github.com/plrun/plrun/types"
)

// Reshape says how a rebuilt table's rows (ALTER TABLE) are made from the
// old table's: each new column takes an old column's value, converted to
// its new type, or a fill value (ADD COLUMN's default). It travels in the
// alter_table DDL record, so replay converts exactly as the statement did.
type Reshape struct {
	Source []int         `json:"source"` // per new column: the old column it comes from, or -1
	Fill   []types.Value `json:"fill"`   // per new column whose Source is -1: its value in every row
	// Number is 1 + the added AUTO_INCREMENT column that the rows get
	// 1, 2, 3 ... in key order (Rebuild.Finish), as MariaDB numbers them;
	// 0 if none.
	Number     int   `json:"number,omitempty"`
	NumberFrom int64 `json:"number_from,omitempty"` // the first number (0: 1)
	// Zone is the ALTER's session time_zone, for a column turned into or
	// out of a TIMESTAMP (reshape_zone.go); "" in older records.
	Zone string `json:"zone,omitempty"`
	// Order is ALTER TABLE ... ORDER BY of a table kept in insertion order
	// (no clustered key): the rows get new hidden row ids in the order of
	// their old values (ties in the old order), so scans return them so.
	Order []SortKey `json:"order,omitempty"`
}

// SortKey is one column of Reshape.Order: an old column's position, and
// whether it sorts descending (NULLs first ascending, last descending).
type SortKey struct {
	Col  int  `json:"col"`
	Desc bool `json:"desc,omitempty"`
}

// ConvertIssue is a value that did not fit its new column as it was:
// Code is the warning non-strict mode gives for the adjustment made
// (types.WarnOutOfRange, WarnTruncated, WarnBadValue; WarnTruncated for a
// NULL in a column that became NOT NULL), or 0 with Err set when the value
// cannot be stored at all.
type ConvertIssue struct {
	Col   int // new column
	Code  uint16
	Value types.Value // the old value
	Err   error
}

// Convert builds the new row from old. report, when not nil, is told of
// every value that had to be adjusted; it returns an error to stop (strict
// mode). A value that cannot be stored is an error whatever report says.
// Values whose column type did not change are kept as they are.
func (rs *Reshape) Convert(oldDef, newDef *TableDef, old []types.Value, report func(ConvertIssue) error) ([]types.Value, error) {
	out := make([]types.Value, len(newDef.Columns))
	for i := range newDef.Columns {
		col := &newDef.Columns[i]
		src := rs.Source[i]
		var v types.Value
		if src < 0 {
			v = rs.Fill[i]
		} else {
			v = old[src]
		}
		if v.IsNull() {
			if col.NotNull {
				d, ok := types.ImplicitDefault(col.Type)
				if !ok {
					// MySQL would store the zero date, which plrun cannot hold.
					return nil, &types.CoerceError{Code: types.WarnTruncated, What: "datetime", Value: "NULL"}
				}
				if err := issue(report, ConvertIssue{Col: i, Code: types.WarnTruncated, Value: v}); err != nil {
					return nil, err
				}
				v = d
			}
			out[i] = v
			continue
		}
		if src >= 0 && oldDef.Columns[src].Type == col.Type {
			out[i] = v
			continue
		}
		if v.K == types.KindString && !v.IsMember() && col.Type.IsInteger() {
			if iv, exact, ok := integerPrefix(v.S); ok && !exact {
				// MariaDB's copy takes a string's integer prefix ('3.7' is 3,
				// '12abc' 12, 'x' 0) and says it truncated it.
				if err := issue(report, ConvertIssue{Col: i, Code: types.WarnTruncated, Value: v}); err != nil {
					return nil, err
				}
				v = iv
			}
		}
		if src >= 0 {
			v = rs.fromTimestamp(oldDef, newDef, src, i, v)
		}
		cv, warn, err := types.CoerceLoose(v, col.Type)
		if err == nil {
			var fits bool
			if cv, fits = rs.toTimestamp(oldDef, newDef, src, i, cv); !fits {
				err = &types.CoerceError{Code: 1292, Value: v.String(), What: "datetime"}
			}
		}
		if err != nil {
			if rerr := issue(report, ConvertIssue{Col: i, Value: v, Err: err}); rerr != nil {
				return nil, rerr
			}
			return nil, err
		}
		if warn != 0 {
			if err := issue(report, ConvertIssue{Col: i, Code: warn, Value: v}); err != nil {
				return nil, err
			}
		}
		out[i] = cv
	}
	return out, nil
}

func issue(report func(ConvertIssue) error, c ConvertIssue) error {
	if report == nil {
		return nil
	}
	return report(c)
}

// SameKey reports whether every row keeps its key under the reshape: the
// new primary key is the old one's columns with their types unchanged (or
// neither table has one, and rows keep their hidden ids). Only then can a
// rebuilt row keep its older versions for snapshot readers.
func (rs *Reshape) SameKey(oldDef, newDef *TableDef) bool {
	op, np := oldDef.PrimaryKey(), newDef.PrimaryKey()
	if len(op) != len(np) {
		return false
	}
	for i, c := range np {
		src := rs.Source[c]
		if src != op[i] || oldDef.Columns[src].Type != newDef.Columns[c].Type {
			return false
		}
	}
	return true
}

// Identity reports a reshape under which every row stays as it is (same
// columns in the same places, same types, no column made NOT NULL): rows
// are then shared with the old table, not converted. Committed values are
// never changed in place, so sharing them is safe.
func (rs *Reshape) Identity(oldDef, newDef *TableDef) bool {
	if len(oldDef.Columns) != len(newDef.Columns) {
		return false
	}
	for i, src := range rs.Source {
		oc, nc := &oldDef.Columns[i], &newDef.Columns[i]
		if src != i || oc.Type != nc.Type || (nc.NotNull && !oc.NotNull) {
			return false
		}
	}
	return true
}

// integerPrefix reads the integer a string starts with (after spaces and a
// sign): exact when the string is that integer and nothing else; ok false
// when the prefix does not fit in 64 bits (the caller converts as usual).
func integerPrefix(str string) (v types.Value, exact, ok bool) {
	t := strings.TrimLeft(str, " \t\n\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	n := 0
	for n < len(t) && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	rest := strings.TrimRight(t[n:], " \t\n\r")
	if n == 0 {
		return types.IntValue(0), false, true
	}
	u, err := strconv.ParseUint(t[:n], 10, 64)
	if err != nil || (neg && u > 1<<63) || (!neg && u > 1<<63-1) {
		return types.Null, false, false
	}
	i := int64(u)
	if neg {
		i = -i
	}
	return types.IntValue(i), rest == "", true
}
