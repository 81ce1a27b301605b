package sql

import "log/slog"

// KillThread is KILL [QUERY | CONNECTION] id sent by this session (the
// statement, or the protocol's COM_PROCESS_KILL), and its line in the
// error log: who killed which connection, and how.
func (s *Session) KillThread(id uint64, queryOnly bool) error {
	err := s.database.Engine.Kill(id, queryOnly)
	kind := "CONNECTION"
	if queryOnly {
		kind = "QUERY"
	}
	user, host := s.Client()
	attrs := []any{"by_id", s.id, "by_user", user, "by_host", host, "id", id, "kind", kind}
	if err != nil {
		s.database.logger().Warn("KILL refused", append(attrs, "err", err)...)
		return err
	}
	s.database.logger().Info("KILL", attrs...)
	return nil
}

// logger is the error log (Database.Logger), never nil.
func (db *Database) logger() *slog.Logger {
	if db.Logger == nil {
		return discardLogger
	}
	return db.Logger
}

var discardLogger = slog.New(slog.DiscardHandler)
