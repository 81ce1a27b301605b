package exec

// serveOrderByIndex lets the access path read a single table in the ORDER
// BY's order and stop after LIMIT + OFFSET rows (plan.Access.ServeOrder):
// only for a plain ordered, limited SELECT of table columns, all ASC or all
// DESC. The rows it returns are still sorted and limited as usual, which
// is cheap on so few and keeps one code path for the result. Without ORDER
// BY, a scan stops the same way (plan.Access.ServeLimit): the rows come in
// its order.
func (pl *SelectPlan) serveOrderByIndex() {
	if pl.acc == nil || pl.t == nil || pl.grouped || pl.distinct || pl.having != nil || pl.forUpdate || pl.calcFoundRows || pl.limit == nil {
		return
	}
	if pl.windows != nil && len(pl.windows.Funcs) > 0 {
		return // a window sees every row, not those LIMIT keeps
	}
	if len(pl.order) == 0 {
		pl.acc.ServeLimit(pl.limit, pl.offset)
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
