package storage

// SyncIndexes gives t the index maps and ordered sides of indexes added to its definition
// after it was built: a derived table's or CTE's placeholder gets keys
// while the query over it is planned, before any rows exist.
func (t *Table) SyncIndexes() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := len(t.secondary); i < len(t.Def.Indexes); i++ {
		var m map[string][]*Row
		if !t.Def.Indexes[i].Primary {
			m = make(map[string][]*Row)
		}
		t.secondary = append(t.secondary, m)
	}
	if len(t.ordered) < len(t.Def.Indexes) {
		t.ordered = append(t.ordered, newOrdered(t.Def)[len(t.ordered):]...)
	}
}
