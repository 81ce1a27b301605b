package bench

import (
	"context"
	"strconv"

	"github.com/plrun/plrun"
)

// Status is one snapshot of SHOW GLOBAL STATUS: Variable_name -> Value.
type Status map[string]string

// ReadStatus takes a snapshot of the engine's global counters.
func ReadStatus(ctx context.Context, s *plrun.Session) (Status, error) {
	res, err := s.Exec(ctx, "SHOW GLOBAL STATUS")
	if err != nil {
		return nil, err
	}
	st := make(Status, len(res.Rows))
	for _, row := range res.Rows {
		if len(row) >= 2 {
			st[row[0].String()] = row[1].String()
		}
	}
	return st, nil
}

// Float returns the named counter as a number; a counter the engine does
// not have (or a non-numeric one) reads as 0.
func (st Status) Float(name string) float64 {
	f, err := strconv.ParseFloat(st[name], 64)
	if err != nil {
		return 0
	}
	return f
}

// Delta returns how much the named counter moved from before to st.
func (st Status) Delta(before Status, name string) float64 {
	return st.Float(name) - before.Float(name)
}
