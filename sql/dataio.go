package sql

import (
	"context"

	"github.com/plrun/plrun/sql/dataio"
	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// LocalFileOpener opens a LOAD DATA LOCAL file on the client's side
// (sql/dataio).
type LocalFileOpener = dataio.LocalFileOpener

// LocalFilesystem opens a LOCAL file from this process's file system.
var LocalFilesystem LocalFileOpener = dataio.LocalFilesystem

// SetLocalFiles sets how the session reads LOAD DATA LOCAL files.
func (s *Session) SetLocalFiles(open LocalFileOpener) { s.localFiles = open }

// dataHost is the session as LOAD DATA and INTO OUTFILE (sql/dataio) see it.
type dataHost struct{ s *Session }

func (h dataHost) Statement() *exec.State    { return &h.s.State }
func (h dataHost) SysVar(name string) string { return h.s.getVar(sysvar.Defs[name], false) }
func (h dataHost) Table(db, name string) *storage.Table {
	return h.s.database.Txns.Catalog().Table(db, name)
}
func (h dataHost) LocalFiles() dataio.LocalFileOpener { return h.s.localFiles }

func (h dataHost) Plan(text string) (*parse.Stmt, error) {
	return h.s.database.plans.Get(text, h.s.SQLMode().ParserMode())
}

func (h dataHost) RunDML(ctx context.Context, p *parse.Stmt, args []types.Value, fn func(x *txn.Txn) (*exec.Result, error)) (*exec.Result, uint64, error) {
	return h.s.runDML(ctx, p, args, fn)
}
