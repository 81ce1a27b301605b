package sql

import (
	"context"
	"github.com/plrun/plrun/sql/callout"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/types"
)

// execDoBlock runs DO LANGUAGE lang $$ body $$: procedure code run once,
// at once, in this session, as a CALL of an unnamed procedure would run
// (same commits, durability wait and rollback of an open transaction on
// error). A body that sets result returns it as a one-row result set with
// the column result; otherwise it is an OK.
func (s *Session) execDoBlock(ctx context.Context, lang, body string) (*exec.Result, uint64, error) {
	def, prog, err := s.database.Procs.CompileBlock(lang, body)
	if err != nil {
		return nil, 0, err
	}
	var out any
	_, output, ack, err := s.runProgram(ctx, func(host procs.Host) ([]any, error) {
		v, err := s.database.Procs.CallBlock(ctx, host, def, prog)
		out = v
		return nil, err
	})
	if err != nil {
		return nil, ack, err
	}
	if out == nil {
		return output.Finish(&exec.Result{}), ack, nil
	}
	v, err := callout.GoValue(out)
	if err != nil {
		return nil, ack, err
	}
	col := exec.Column{Name: procs.BlockResult, Type: expr.TypeOfValue(v)}
	set := &exec.Result{Columns: []exec.Column{col}, Rows: [][]types.Value{{v}}}
	if !output.HasSets() {
		return output.Finish(set), ack, nil
	}
	// After emitted sets, result is the last set, then the block's OK.
	return output.Finish(&exec.Result{Sets: []*exec.Result{set}}), ack, nil
}
