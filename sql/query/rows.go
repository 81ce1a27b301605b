package query

import (
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// OrderItem is one ORDER BY key.
type OrderItem struct {
	E    *expr.Expr
	Desc bool
}

// Row is a result row and its ORDER BY keys.
type Row struct {
	Vals []types.Value
	Keys []types.Value
}

// Limit cuts out to LIMIT [offset,] count. Counts are unsigned and
// saturate (LIMIT 18446744073709551615, 1 is an empty set, not a panic).
func Limit(ec *expr.Ctx, limitE, offsetE *expr.Expr, out []Row) ([]Row, error) {
	if limitE == nil {
		return out, nil
	}
	lv, err := limitE.Fn(ec)
	if err != nil {
		return nil, err
	}
	limit, ok := expr.RowCountArg(lv)
	offset := 0
	if ok && offsetE != nil {
		ov, err := offsetE.Fn(ec)
		if err != nil {
			return nil, err
		}
		offset, ok = expr.RowCountArg(ov)
	}
	if !ok {
		return nil, sqlerr.New(sqlerr.ErWrongArguments, "Incorrect arguments to EXECUTE")
	}
	if offset > len(out) {
		offset = len(out)
	}
	out = out[offset:]
	if limit < len(out) {
		out = out[:limit]
	}
	return out, nil
}

// FixColumnTypes gives columns whose type could not be inferred at plan
// time (placeholders, user variables) the type of their first value.
func FixColumnTypes(r *Result) {
	for i := range r.Columns {
		if r.Columns[i].Type.Base != 0 {
			continue
		}
		t := expr.TVarchar
		for _, row := range r.Rows {
			if !row[i].IsNull() {
				t = expr.TypeOfValue(row[i])
				break
			}
		}
		r.Columns[i].Type = t
	}
}

// OrderLess compares rows by their ORDER BY keys.
func OrderLess(order []OrderItem) func(a, b Row) bool {
	return func(a, b Row) bool {
		for k, o := range order {
			if c := types.Compare(a.Keys[k], b.Keys[k]); c != 0 {
				return (c < 0) != o.Desc
			}
		}
		return false
	}
}

// RowsBytes is what rows hold in memory, as a statement's account charges
// them.
func RowsBytes(rows [][]types.Value) int64 {
	var n int64
	for _, r := range rows {
		n += expr.RowBytes + expr.ValueBytes*int64(len(r))
	}
	return n
}

// RowKey is a row's identity for set operations: NULLs are equal, as
// DISTINCT compares them.
func RowKey(r []types.Value) string {
	var kb []byte
	for _, v := range r {
		kb = types.KeyString(kb, v)
	}
	return string(kb)
}

// Fill loads rows into a new transient table of def.
func Fill(ec *expr.Ctx, def *storage.TableDef, rows [][]types.Value) (*storage.Table, error) {
	if err := ec.Mem.Grow(RowsBytes(rows)); err != nil {
		return nil, err
	}
	t := storage.NewTable(def)
	for _, r := range rows {
		slot := t.NewHiddenSlot()
		t.Apply(slot.Key, slot.PK, r, 0)
	}
	return t, nil
}
