package exec

// serveOrderByIndex lets the access path read a single table in the ORDER
// BY's order and stop after LIMIT + OFFSET rows (plan.Access.ServeOrder):
// only for a plain ordered, limited SELECT of table columns, all ASC or all
// DESC. The rows it returns are still sorted and limited as usual, which
// is cheap on so few and keeps one code path for the result.
func (pl *SelectPlan) serveOrderByIndex() {
	if pl.acc == nil || pl.t == nil || pl.grouped || pl.distinct || pl.having != nil || pl.forUpdate || pl.calcFoundRows || pl.limit == nil || len(pl.order) == 0 {
		return
	}
	desc := pl.order[0].Desc
	cols := make([]int, 0, len(pl.order))
	for _, o := range pl.order {
		if o.E.Col < 0 || o.E.Source != nil || o.E.HasAgg || o.Desc != desc {
			return
		}
		cols = append(cols, o.E.Col)
	}
	pl.acc.ServeOrder(cols, desc, pl.limit, pl.offset)
}
