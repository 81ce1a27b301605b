package sql

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/plrun/plrun/sql/acl"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/show"
	"github.com/plrun/plrun/sqlerr"
)

// execAccount runs an account statement (CREATE/DROP/ALTER/RENAME USER,
// SET PASSWORD, GRANT, REVOKE, SHOW GRANTS, SHOW CREATE USER) against the
// account catalog. The ones that change it commit the open transaction
// first, as MySQL's implicit commit does; each is one accounts record.
func (s *Session) execAccount(ctx context.Context, p *parse.Stmt) (*exec.Result, uint64, error) {
	cat := s.database.Accounts
	if cat == nil {
		return nil, 0, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support '%s'", firstWords(p.Text))
	}
	var ack uint64
	if _, isShow := p.Node.(*ast.ShowStmt); !isShow {
		var err error
		if ack, err = s.finishOpen(ctx); err != nil {
			return nil, ack, err
		}
	}
	env := &acl.Env{
		Journal: s.database.Txns,
		DB:      s.DB,
		Text:    p.Text,
		TableExists: func(db, table string) bool {
			return s.database.Txns.Catalog().Table(db, table) != nil
		},
		RoutineExists: func(db, name string, fn bool) bool {
			if fn {
				_, _, ok := s.database.Procs.GetFunction(db, name)
				return ok
			}
			_, _, ok := s.database.Procs.Get(db, name)
			return ok
		},
	}
	if g, ok := s.grants.(*acl.Grants); ok {
		env.Current = g
	}
	r, err := cat.Exec(ctx, env, p.Node)
	if err != nil {
		return nil, ack, err
	}
	if r.Column != "" {
		rows := make([][]string, len(r.Rows))
		for i, line := range r.Rows {
			rows[i] = []string{line}
		}
		return show.StringRows([]string{r.Column}, rows), ack, nil
	}
	res := &exec.Result{Notes: r.Notes}
	res.Warnings = uint16(len(r.Notes))
	return res, ack, nil
}
