package expr

// Examine counts n rows read from a table for the statement running in
// c's session: the slow log's Rows_examined. One add on the session's
// own Env, which only its goroutine touches.
func (c *Ctx) Examine(n int) {
	if c.Env != nil {
		c.Env.RowsExamined += uint64(n)
	}
}

// NoteFullScan records that the statement read a whole table, for
// log_queries_not_using_indexes.
func (c *Ctx) NoteFullScan() {
	if c.Env != nil {
		c.Env.FullScan = true
	}
}
