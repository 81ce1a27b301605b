package expr

import "runtime"

// pollEvery is how many rows a loop handles between two looks at the
// statement's context: cheap enough per row, and a few microseconds of
// work apart, so KILL, max_execution_time and a client that left stop
// every operator (scans, joins, sorts, GROUP BY, DISTINCT, subqueries)
// well within 100 ms of CPU.
const pollEvery = 256

// Poll is called once per row by loops over rows; every pollEvery-th call
// it returns the statement's cancellation, if any.
func (c *Ctx) Poll() error {
	c.polls++
	if c.polls%pollEvery != 0 {
		return nil
	}
	// A long statement also yields here, so that the short statements
	// of other sessions get a core within microseconds instead of
	// waiting out the scheduler's 10 ms time slices behind it.
	runtime.Gosched()
	return c.PollNow()
}

// PollNow returns the statement's cancellation, if any, now.
func (c *Ctx) PollNow() error {
	if c.Context == nil {
		return nil
	}
	return c.Context.Err()
}
