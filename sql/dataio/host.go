package dataio

import (
	"context"
	"io"
	"os"

	"github.com/plrun/plrun/sql/exec"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/txn"
	"github.com/plrun/plrun/types"
)

// Host is the session as LOAD DATA and INTO OUTFILE see it.
type Host interface {
	// Statement is the session's statement state: its database, SQL
	// mode, user variables and warnings; it runs the INSERT and SELECT.
	Statement() *exec.State
	// SysVar is a system variable's value in the session.
	SysVar(name string) string
	// Table is the table db.name, or nil.
	Table(db, name string) *storage.Table
	// Plan parses a statement LOAD DATA builds, through the statement cache.
	Plan(text string) (*parse.Stmt, error)
	// RunDML runs fn as the statement p in the session's transaction
	// (a new one under autocommit), with statement-level rollback.
	RunDML(ctx context.Context, p *parse.Stmt, args []types.Value, fn func(x *txn.Txn) (*exec.Result, error)) (*exec.Result, uint64, error)
	// LocalFiles is how the session reads LOAD DATA LOCAL files (nil:
	// LOCAL is refused, 1148).
	LocalFiles() LocalFileOpener
}

// LocalFileOpener opens the file a LOAD DATA LOCAL INFILE names on the
// client's side: the server asks the client over the protocol, the REPL
// and the Go API read their own file system. Without one, LOCAL is
// refused (1148), as a client without local-infile is.
type LocalFileOpener func(ctx context.Context, name string) (io.ReadCloser, error)

// LocalFilesystem opens a LOCAL file from this process's file system: the
// opener of the REPL and the Go API, where the client is this process
// (no secure_file_priv, which bounds the server's files, as in MySQL).
func LocalFilesystem(_ context.Context, name string) (io.ReadCloser, error) { return os.Open(name) }
