package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"

	"github.com/plrun/plrun/engine"
)

// The error log of `plrun serve`: one slog line per event (start, stop,
// recovery, checkpoints, fail-stop, panics, failed logins, KILLs,
// refused connections), text or JSON, to stderr or --log-error FILE.

// errorLogFlags are serve's flags for the error log.
type errorLogFlags struct {
	file   *string
	format *string
}

func registerErrorLogFlags(fs *flag.FlagSet) errorLogFlags {
	return errorLogFlags{
		file:   fs.String("log-error", "", "error log file (appended to; FLUSH ERROR LOGS reopens it); default stderr"),
		format: fs.String("log-format", "text", "error log format: text (key=value) or json, one line per event"),
	}
}

// open builds the logger; reopen is nil when the log goes to stderr.
func (f errorLogFlags) open(stderr io.Writer) (log *slog.Logger, file *logFile, err error) {
	var w io.Writer = stderr
	if *f.file != "" {
		if file, err = openLogFile(*f.file); err != nil {
			return nil, nil, fmt.Errorf("--log-error: %w", err)
		}
		w = file
	}
	var h slog.Handler
	switch *f.format {
	case "text":
		h = slog.NewTextHandler(w, nil)
	case "json":
		h = slog.NewJSONHandler(w, nil)
	default:
		if file != nil {
			file.Close()
		}
		return nil, nil, fmt.Errorf("--log-format %q: want text or json", *f.format)
	}
	return slog.New(h), file, nil
}

// logFile is the error log's file, reopened under its name by FLUSH
// ERROR LOGS so that a rotation tool can rename it. slog's handlers
// serialize their writes; mu only orders them with Reopen.
type logFile struct {
	mu   sync.Mutex
	path string
	f    *os.File
}

func openLogFile(path string) (*logFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return nil, err
	}
	return &logFile{path: path, f: f}, nil
}

func (l *logFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return 0, errors.New("error log closed")
	}
	return l.f.Write(p)
}

// Reopen closes the file and opens its name again.
func (l *logFile) Reopen() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return err
	}
	l.mu.Lock()
	old := l.f
	l.f = f
	l.mu.Unlock()
	if old != nil {
		return old.Close()
	}
	return nil
}

func (l *logFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// logStart is the start line: what runs, where, and every global setting
// that differs from its default with where it came from (explicit: the
// names given with --set).
func logStart(log *slog.Logger, e *engine.Engine, addr net.Addr, dataDir string) {
	attrs := []any{"version", ServerVersion, "listen", addr.String(), "data", dataDir, "pid", os.Getpid()}
	log.Info("plrun started", append(attrs, changedSettings(e)...)...)
}

// changedSettings is the settings group of the start and stop lines: each
// global setting that differs from its default, its value and source as
// performance_schema.variables_info names it (COMMAND_LINE, PERSISTED,
// GLOBAL / EXPLICIT / EXTRA with the option file, DYNAMIC for SET GLOBAL
// since the start, which shows at the stop).
func changedSettings(e *engine.Engine) []any {
	var settings []any
	for _, s := range e.ChangedSettings() {
		attrs := []any{"value", s.Value, "source", s.Source}
		if s.Path != "" {
			attrs = append(attrs, "path", s.Path)
		}
		settings = append(settings, slog.Group(s.Name, attrs...))
	}
	if len(settings) == 0 {
		return nil
	}
	return []any{slog.Group("settings", settings...)}
}

// logLoginFailed is the line of a refused login: the user and client
// host and why, never the password.
func (s *Server) logLoginFailed(user string, nc net.Conn, reason string) {
	s.cfg.Logger.Warn("login failed", "user", user, "client", nc.RemoteAddr().String(), "reason", reason)
}
