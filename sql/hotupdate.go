package sql

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/hotrow"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/expr"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/plan"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// hotMember is one session's UPDATE inside a hot-row group.
type hotMember struct {
	s    *Session
	p    *parse.Stmt
	n    *ast.UpdateStmt
	args []types.Value
	res  *exec.Result
	ack  uint64
}

// JoinedAsFollower shows the follower's State (hotrow.Follower).
func (hm *hotMember) JoinedAsFollower() { hm.s.stateP.Store(&stateHotFollower) }

// hotRow is the row an UPDATE eligible for group update names.
type hotRow struct {
	t      *storage.Table
	rowKey string
}

// groupKey identifies the row across tables.
func (h hotRow) groupKey() string { return strconv.FormatUint(h.t.Def.ID, 10) + "/" + h.rowKey }

// hotRowOf returns the row of an UPDATE that may join a hot-row group
// update, or ok false: hotspot is ON, the statement commits on its own
// (the COMMIT_ON_SUCCESS hint, or autocommit with hotspot_for_autocommit),
// no transaction is open, it runs outside a procedure, and it names the
// whole primary key.
func (s *Session) hotRowOf(p *parse.Stmt, n *ast.UpdateStmt, args []types.Value) (hotRow, bool) {
	if s.txn != nil || s.callDepth > 0 || !s.database.Hotspot.Load() {
		return hotRow{}, false
	}
	if !p.Hints.CommitOnSuccess && !(s.autocommit() && s.database.HotspotAutocommit.Load()) {
		return hotRow{}, false
	}
	pi, err := s.PlanFor(p, func() (any, error) { return s.BuildUpdate(n) })
	if err != nil {
		return hotRow{}, false
	}
	pl := pi.(*exec.UpdatePlan)
	if pl.Access.PK == nil || s.database.Procs.HasTriggers(pl.Table.Def.DB, pl.Table.Def.Name) {
		// a trigger's statements need the session's own statement path
		return hotRow{}, false
	}
	pk, ok, err := plan.KeyValues(&expr.Ctx{Env: &s.Env, Args: args}, pl.Table, pl.Table.Def.PrimaryKey(), pl.Access.PK)
	if err != nil || !ok {
		return hotRow{}, false
	}
	return hotRow{t: pl.Table, rowKey: storage.KeyOf(pk)}, true
}

// execHotUpdate runs the UPDATE as a member of the row's group: the
// group's leader takes the row lock once, runs every member's statement
// in one transaction (a failing member's statement is undone alone) and
// commits them with one commit record. Each member is answered once that
// commit is durable, by its own session.
func (s *Session) execHotUpdate(ctx context.Context, row hotRow, p *parse.Stmt, n *ast.UpdateStmt, args []types.Value) (*exec.Result, uint64, error) {
	hm := &hotMember{s: s, p: p, n: n, args: args}
	m := &hotrow.Member{Payload: hm}
	defer s.stateP.Store(s.stateP.Load())
	// The group runs on the leader's goroutine for every member, so it is
	// not cut short by the leader's own KILL or timeout.
	// (WithoutCancel keeps the session's lock wait timeout.)
	gctx := context.WithoutCancel(ctx)
	// Only the leader's transaction is used: followers begin none.
	var x *txn.Txn
	lead := func() error {
		s.stateP.Store(&stateHotLeader)
		x = s.beginTxn(nil)
		return x.Lock(gctx, row.t, row.rowKey)
	}
	run := func(members []*hotrow.Member) { s.database.runHotGroup(gctx, x, members) }
	maxWait := time.Duration(s.database.HotspotWait.Load()) * time.Microsecond
	s.database.Hot.Submit(row.groupKey(), maxWait, m, lead, run)
	if errors.Is(m.Err, txn.ErrTableChanged) {
		// A schema change replaced the table while the group waited for
		// it (nothing of this statement was kept): run it alone, re-planned.
		return s.runDML(ctx, p, args, func(x *txn.Txn) (*exec.Result, error) { return s.ExecUpdate(ctx, x, p, n, args) })
	}
	if m.Err != nil {
		return nil, hm.ack, m.Err
	}
	return hm.res, hm.ack, nil
}

// runHotGroup executes the members' statements in x and commits once.
func (db *Database) runHotGroup(ctx context.Context, x *txn.Txn, members []*hotrow.Member) {
	ok := 0
	for _, m := range members {
		hm := m.Payload.(*hotMember)
		mark := x.Mark()
		x.BeginStatement(hm.s.lastCommitLSN, false)
		res, err := hm.s.ExecUpdate(ctx, x, hm.p, hm.n, hm.args)
		x.EndStatement()
		if err == nil && hm.p.Hints.TargetRows >= 0 && int64(res.AffectedRows) != hm.p.Hints.TargetRows {
			err = fmt.Errorf("%w: TARGET_AFFECT_ROW(%d), %d rows affected", errTargetAffectRow, hm.p.Hints.TargetRows, res.AffectedRows)
		}
		if err != nil {
			x.RollbackTo(mark)
			m.Err = err
			continue
		}
		hm.res = res
		ok++
	}
	if ok == 0 {
		x.Rollback()
		return
	}
	ack, err := x.Commit(ctx, txn.CommitOptions{EarlyRelease: db.ELR.Load()})
	for _, m := range members {
		hm := m.Payload.(*hotMember)
		if m.Err != nil {
			continue
		}
		hm.ack = ack
		if lsn := x.CommitLSN(); lsn > hm.s.lastCommitLSN {
			hm.s.lastCommitLSN = lsn
		}
		hm.s.stmtCommitLSN = x.CommitLSN()
		hm.s.stmtReadLSN = max(hm.s.stmtReadLSN, x.ReadLSN())
		if err != nil {
			m.Err = err
		}
	}
}
