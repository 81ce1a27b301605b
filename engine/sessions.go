package engine

import (
	"context"
	"sort"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

// NewSession opens a session on database "test".
func (e *Engine) NewSession() *sql.Session { return e.db.NewSession() }

// Register adds a session to the registry (sql.Engine).
func (e *Engine) Register(s *sql.Session) {
	e.sessMu.Lock()
	e.sessions[s.ID()] = s
	e.sessMu.Unlock()
}

// Unregister forgets a closed session (sql.Engine).
func (e *Engine) Unregister(s *sql.Session) {
	e.sessMu.Lock()
	delete(e.sessions, s.ID())
	e.sessMu.Unlock()
}

func (e *Engine) openSessions() []*sql.Session {
	e.sessMu.Lock()
	defer e.sessMu.Unlock()
	ss := make([]*sql.Session, 0, len(e.sessions))
	for _, s := range e.sessions {
		ss = append(ss, s)
	}
	return ss
}

// Sessions lists the open sessions (SHOW PROCESSLIST).
func (e *Engine) Sessions() []sql.SessionInfo {
	ss := e.openSessions()
	out := make([]sql.SessionInfo, 0, len(ss))
	for _, s := range ss {
		out = append(out, s.Info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	sql.ResolveLockHolders(out)
	return out
}

// Processlist is Sessions (sql.Engine).
func (e *Engine) Processlist() []sql.SessionInfo { return e.Sessions() }

// Kill stops session id's running statement; with queryOnly false it also
// closes the session's connection state (the next statement fails).
func (e *Engine) Kill(id uint64, queryOnly bool) error {
	e.sessMu.Lock()
	s := e.sessions[id]
	e.sessMu.Unlock()
	if s == nil {
		return sqlerr.New(sqlerr.ErNoSuchThread, "Unknown thread id: %d", id)
	}
	s.Interrupt(queryOnly)
	return nil
}

// Closed reports whether Close has begun (sql.Engine).
func (e *Engine) Closed() bool { return e.closed.Load() }

// AcquireWorker takes a worker for one statement (sql.Engine).
func (e *Engine) AcquireWorker(ctx context.Context) error { return e.workers.acquire(ctx) }

// ReleaseWorker returns it (sql.Engine).
func (e *Engine) ReleaseWorker() { e.workers.release() }

// DurableLSN is the newest durable LSN (sql.Engine).
func (e *Engine) DurableLSN() uint64 { return e.pipe.DurableLSN() }

// StatementDone starts a background checkpoint once the log has grown
// past plrun_checkpoint_log_size (sql.Engine).
func (e *Engine) StatementDone() { e.maybeCheckpoint() }

// Database is the state the engine's sessions share.
func (e *Engine) Database() *sql.Database { return e.db }
