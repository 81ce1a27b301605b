package querylog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Kind names one of the two logs.
type Kind int

const (
	General Kind = iota // general_log
	Slow                // slow_query_log
	kinds
)

// QueueSize bounds the entries waiting for the writer; past it entries
// are dropped (Dropped) rather than making a statement wait.
const QueueSize = 8192

// Server is what the header of each log file names, as mysqld writes
// it when it opens one: the program, its version and the TCP port (0
// for an embedded engine, as MySQL writes with skip-networking).
type Server struct {
	Program string
	Version string
	Port    int
}

// Logs is the general and the slow query log of one database.
type Logs struct {
	server  atomic.Pointer[Server]
	on      [kinds]atomic.Bool // the file is set and the log enabled
	queue   chan message
	dropped atomic.Uint64
	written atomic.Uint64
	closeMu sync.RWMutex // excludes sends on a closed queue
	closed  bool
	done    chan struct{}
}

// message is what the writer receives: an entry to write, or a control
// request (ctl non-nil) it answers on reply.
type message struct {
	kind    Kind
	general *generalEntry
	slow    *SlowEntry
	ctl     func(w *writer) error
	reply   chan error
}

// New starts the writer goroutine; both logs start closed (no file).
func New(server Server) *Logs {
	l := &Logs{queue: make(chan message, QueueSize), done: make(chan struct{})}
	l.server.Store(&server)
	go l.run()
	return l
}

// SetServer changes what the headers name (the server sets its port).
func (l *Logs) SetServer(s Server) { l.server.Store(&s) }

// Enabled reports whether kind is on (enabled with a file): callers test
// it before building an entry, so a log that is off costs one atomic load.
func (l *Logs) Enabled(kind Kind) bool { return l != nil && l.on[kind].Load() }

// Dropped is how many entries were dropped because the queue was full.
func (l *Logs) Dropped() uint64 { return l.dropped.Load() }

// Written is how many entries were written.
func (l *Logs) Written() uint64 { return l.written.Load() }

// send queues m without waiting; a full queue drops it.
func (l *Logs) send(m message) {
	l.closeMu.RLock()
	defer l.closeMu.RUnlock()
	if l.closed {
		return
	}
	select {
	case l.queue <- m:
	default:
		l.dropped.Add(1)
	}
}

// control runs fn on the writer goroutine, after every entry queued
// before it, and returns its error.
func (l *Logs) control(fn func(w *writer) error) error {
	reply := make(chan error, 1)
	l.closeMu.RLock()
	if l.closed {
		l.closeMu.RUnlock()
		return errors.New("query logs are closed")
	}
	l.queue <- message{ctl: fn, reply: reply}
	l.closeMu.RUnlock()
	return <-reply
}

// SetFile points kind at path (empty: no file) and turns it on or off.
// A changed path closes the old file; the new one is opened (and its
// header written) when the first entry comes, as mysqld opens its logs.
func (l *Logs) SetFile(kind Kind, path string, enabled bool) error {
	err := l.control(func(w *writer) error {
		f := &w.files[kind]
		if f.path != path {
			f.close()
			f.path = path
		}
		return nil
	})
	l.on[kind].Store(enabled && path != "" && err == nil)
	return err
}

// Reopen closes the files of kinds; the next entry opens them again,
// with a new header: FLUSH LOGS, after a rotation tool renamed them.
func (l *Logs) Reopen(kinds ...Kind) error {
	return l.control(func(w *writer) error {
		var errs []error
		for _, k := range kinds {
			errs = append(errs, w.files[k].close())
		}
		return errors.Join(errs...)
	})
}

// Sync returns once everything queued before it is written and flushed
// (tests, and Close).
func (l *Logs) Sync() error { return l.control(func(w *writer) error { return w.flush() }) }

// Close writes what is queued, closes the files and stops the writer.
func (l *Logs) Close() error {
	err := l.Sync()
	l.closeMu.Lock()
	if l.closed {
		l.closeMu.Unlock()
		return nil
	}
	l.closed = true
	close(l.queue)
	l.closeMu.Unlock()
	<-l.done
	return err
}

// CheckPath refuses a log file path the writer could not open: a folder,
// or a file in a folder that does not exist or cannot be written. It
// creates nothing.
func CheckPath(path string) error {
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s is a folder", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		return f.Close()
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	probe, err := os.CreateTemp(dir, ".plrun-log-probe-*")
	if err != nil {
		return err
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// run is the writer goroutine.
func (l *Logs) run() {
	defer close(l.done)
	w := &writer{logs: l}
	for m := range l.queue {
		w.handle(m)
		// Flush once the queue runs dry: one write for a burst.
		if len(l.queue) == 0 {
			_ = w.flush()
		}
	}
	_ = w.flush()
	for i := range w.files {
		_ = w.files[i].close()
	}
}

// writer is the state only the writer goroutine touches.
type writer struct {
	logs  *Logs
	files [kinds]logFile
}

// logFile is one open log and what its format carries between entries.
type logFile struct {
	path     string
	f        *os.File
	buf      *bufio.Writer
	lastSec  int64  // the second of the last Time stamp written
	lastDB   string // the database of the last `use db;` (slow log)
	openFail bool   // the last open failed (reported once, not per entry)
}

func (w *writer) handle(m message) {
	if m.ctl != nil {
		m.reply <- m.ctl(w)
		return
	}
	f := &w.files[m.kind]
	out, err := f.open(w.logs.server.Load())
	if err != nil {
		w.logs.dropped.Add(1)
		return
	}
	switch {
	case m.general != nil:
		f.writeGeneral(out, m.general)
	case m.slow != nil:
		f.writeSlow(out, m.slow)
	}
	w.logs.written.Add(1)
}

func (w *writer) flush() error {
	var errs []error
	for i := range w.files {
		if b := w.files[i].buf; b != nil {
			errs = append(errs, b.Flush())
		}
	}
	return errors.Join(errs...)
}

// open returns the file's buffer, opening the file and writing mysqld's
// header first if it is not open.
func (f *logFile) open(s *Server) (io.Writer, error) {
	if f.buf != nil {
		return f.buf, nil
	}
	if f.path == "" {
		return nil, errors.New("no log file")
	}
	file, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		f.openFail = true
		return nil, err
	}
	f.f, f.buf, f.lastSec, f.lastDB, f.openFail = file, bufio.NewWriterSize(file, 64<<10), 0, "", false
	fmt.Fprintf(f.buf, "%s, Version: %s (plrun). started with:\nTcp port: %d  Unix socket: \nTime\t\t    Id Command\tArgument\n", s.Program, s.Version, s.Port)
	return f.buf, nil
}

func (f *logFile) close() error {
	if f.f == nil {
		return nil
	}
	err := errors.Join(f.buf.Flush(), f.f.Close())
	f.f, f.buf = nil, nil
	return err
}

// stamp is MariaDB's time stamp of the logs: YYMMDD HH:MM:SS, local time.
func stamp(t time.Time) string { return t.Format("060102 15:04:05") }
