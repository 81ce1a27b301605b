package server

import (
	"context"
	"crypto/rsa"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/sql/querylog"

	"github.com/go-mysql-org/go-mysql/mysql"

	plsql "github.com/plrun/plrun/sql"
)

// ServerVersion is what the handshake announces; clients only print it.
const ServerVersion = "8.0.36-plrun"

// DefaultMaxConnections bounds concurrent connections when Config leaves it 0.
const DefaultMaxConnections = 1000

// Config configures a Server.
type Config struct {
	Engine *engine.Engine
	// Users seed the account catalog at the first start (seedAccounts):
	// each becomes 'name'@'%' with ALL PRIVILEGES ON *.* WITH GRANT
	// OPTION. Once the catalog has accounts they are the logins, and
	// Users is not applied again.
	Users Users
	// MaxConnections bounds concurrent connections (0 = DefaultMaxConnections);
	// past it a client gets 1040 Too many connections.
	MaxConnections int
	// AuthPlugin is the plugin of the seeded accounts and the method the
	// server asks a login for before it knows the account:
	// "mysql_native_password" (default) or "caching_sha2_password"
	// (sha2auth.go: fast authentication from a cache that a full
	// authentication, over TLS or RSA, fills). A login is switched to its
	// account's plugin.
	AuthPlugin string
	// TLS, if set, is offered on the connection (CLIENT_SSL; tls.go).
	TLS *tls.Config
	// RSAKey, if set, lets caching_sha2_password's full authentication
	// run without TLS: the client encrypts its password with the public
	// half, which it may ask the server for.
	RSAKey *rsa.PrivateKey
	// Compat is CompatMySQL (default) or CompatOceanBase: see there.
	Compat string
	// Logger is the error log (panics, failed logins, refused
	// connections); nil is the engine's (engine.Config.Logger).
	Logger *slog.Logger
}

// Server serves the MySQL protocol for one engine.
type Server struct {
	cfg     Config
	started time.Time

	fastAuth     fastAuthCache // caching_sha2_password's (sha2auth.go)
	publicKeyPEM []byte        // RSAKey's public half, sent on request

	questions atomic.Uint64 // commands received (COM_STATISTICS)
	panics    atomic.Uint64 // connections ended by a panic

	mu struct {
		sync.Mutex
		draining  bool
		conns     map[*conn]struct{}
		listeners map[net.Listener]struct{}
	}
	active sync.WaitGroup // connection goroutines
}

// New returns a Server; it starts nothing.
func New(cfg Config) (*Server, error) {
	if cfg.Engine == nil {
		return nil, errors.New("server: no engine")
	}
	for name := range cfg.Users {
		if name == "" {
			return nil, errors.New("server: empty user name (anonymous access is not allowed)")
		}
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = DefaultMaxConnections
	}
	if cfg.AuthPlugin == "" {
		cfg.AuthPlugin = mysql.AUTH_NATIVE_PASSWORD
	}
	if cfg.Logger == nil {
		cfg.Logger = cfg.Engine.Logger()
	}
	switch cfg.AuthPlugin {
	case mysql.AUTH_NATIVE_PASSWORD, mysql.AUTH_CACHING_SHA2_PASSWORD:
	default:
		return nil, fmt.Errorf("server: unsupported auth plugin %q", cfg.AuthPlugin)
	}
	switch cfg.Compat {
	case CompatMySQL, CompatOceanBase:
	default:
		return nil, fmt.Errorf("server: unknown compatibility mode %q (want oceanbase or none)", cfg.Compat)
	}
	if err := seedAccounts(cfg); err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, started: time.Now()}
	if cfg.RSAKey != nil {
		var err error
		if s.publicKeyPEM, err = encodePublicKey(cfg.RSAKey); err != nil {
			return nil, fmt.Errorf("server: RSA key: %w", err)
		}
	}
	s.mu.conns = map[*conn]struct{}{}
	s.mu.listeners = map[net.Listener]struct{}{}
	return s, nil
}

// Panics is how many connections a panic ended (each logged with its stack).
func (s *Server) Panics() uint64 { return s.panics.Load() }

// Serve accepts connections on ln until Shutdown (then it returns nil)
// or an accept error.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.mu.draining {
		s.mu.Unlock()
		return nil
	}
	s.mu.listeners[ln] = struct{}{}
	s.mu.Unlock()
	for {
		nc, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			draining := s.mu.draining
			delete(s.mu.listeners, ln)
			s.mu.Unlock()
			if draining {
				return nil
			}
			return err
		}
		go s.ServeConn(nc)
	}
}

// ServeConn serves one accepted connection until it ends; it closes nc.
// A panic while serving it ends this connection alone: it is logged with
// its stack and counted (Panics), and the session's transactions are
// rolled back, so no row lock stays held; other sessions go on.
func (s *Server) ServeConn(nc net.Conn) {
	stats := s.cfg.Engine.Net()
	stats.Attempt()
	c, ok := s.register(nc)
	if !ok {
		stats.AbortedConnect()
		return
	}
	defer s.active.Done()
	defer s.unregister(c)
	defer nc.Close()
	defer func() { c.session.Close() }()
	defer s.recoverConn(c)

	c.session.OnKill(c.wake)
	p := newPacketConn(c.sock)
	p.maxPacket = s.cfg.Engine.MaxAllowedPacket()
	w, err := s.connect(c, p)
	if err != nil {
		_ = p.flush() // the client's error
		stats.AbortedConnect()
		return
	}
	stats.Opened()
	defer stats.Closed()
	c.mu.Lock()
	c.wire = w
	c.mu.Unlock()
	c.session.SetClient(w.user, nc.RemoteAddr().String())
	c.session.LogCommand(querylog.CmdConnect, querylog.ConnectArg(w.user, nc.RemoteAddr().String(), c.session.CurrentDB()))
	if c.serve() {
		stats.AbortedClient()
	}
}

// recoverConn is ServeConn's last line of defence against a panic.
func (s *Server) recoverConn(c *conn) {
	r := recover()
	if r == nil {
		return
	}
	stack := debug.Stack()
	if pe, ok := r.(*plsql.PanicError); ok {
		r, stack = pe.Value, pe.Stack
	}
	n := s.panics.Add(1)
	s.cfg.Logger.Error("connection ended by a panic", "id", c.session.ID(), "client", c.nc.RemoteAddr().String(),
		"panics", n, "panic", fmt.Sprint(r), "stack", string(stack))
}

// register admits a connection, or answers 1040 / 1053 and closes it.
func (s *Server) register(nc net.Conn) (*conn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var refuse *mysql.MyError
	switch {
	case s.mu.draining:
		refuse = errShutdown
	case len(s.mu.conns) >= s.cfg.MaxConnections:
		refuse = mysql.NewError(mysql.ER_CON_COUNT_ERROR, "Too many connections")
		s.cfg.Engine.Net().RefusedMaxConnections()
	}
	if refuse != nil {
		go func() { // never block the lock on a slow client, or a slow log
			if refuse.Code == mysql.ER_CON_COUNT_ERROR {
				s.cfg.Logger.Warn("connection refused: too many connections (1040)", "client", nc.RemoteAddr().String(),
					"max_connections", s.cfg.MaxConnections)
			}
			refuseConn(nc, refuse)
		}()
		return nil, false
	}
	c := newConn(s, nc)
	s.mu.conns[c] = struct{}{}
	s.active.Add(1)
	return c, true
}

// newConn is the handler of a new connection on nc, with a new session.
func newConn(s *Server, nc net.Conn) *conn {
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{
		srv:     s,
		nc:      nc,
		session: s.cfg.Engine.NewSession(),
		sock:    &countingConn{Conn: nc, net: s.cfg.Engine.Net()},
		ctx:     ctx,
		cancel:  cancel,
		stmts:   map[uint32]*preparedStmt{},
	}
	c.drainMark.Store(noDrainMark)
	c.session.SetLocalFiles(c.localInfile)
	return c
}

func (s *Server) unregister(c *conn) {
	c.cancel()
	s.mu.Lock()
	delete(s.mu.conns, c)
	s.mu.Unlock()
}

// refuseConn sends err in place of the handshake, as MySQL does for
// "Too many connections", and closes nc.
func refuseConn(nc net.Conn, e *mysql.MyError) {
	defer nc.Close()
	_ = nc.SetWriteDeadline(time.Now().Add(5 * time.Second))
	w := &wire{packetConn: newPacketConn(nc)}
	_ = w.writeError(e)
	_ = w.flush()
}

// Shutdown stops accepting, runs every statement already received (also
// those a client pipelined behind a running one) to completion and writes
// their replies, answers 1053 to statements that arrive later, and closes
// every connection (see drain.go). If ctx ends first, it cancels the
// statements still running, closes their sockets and waits for their
// goroutines. The engine is the caller's to close afterwards.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.mu.draining = true
	for ln := range s.mu.listeners {
		_ = ln.Close()
	}
	for c := range s.mu.conns {
		c.mu.Lock()
		c.markDrain()
		c.mu.Unlock()
	}
	s.mu.Unlock()

	done := make(chan struct{})
	go func() { s.active.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	n := len(s.mu.conns)
	for c := range s.mu.conns {
		c.cancel()
		c.wake()
	}
	s.mu.Unlock()
	<-done
	return fmt.Errorf("server: shutdown cancelled %d in-flight connection(s): %w", n, ctx.Err())
}

// wake makes the connection's blocked read return at once. Called by
// Shutdown with c.mu held, and by KILL (OnKill) from the killer's goroutine.
func (c *conn) wake() {
	_ = c.sock.SetReadDeadline(time.Now())
}

// statistics is COM_STATISTICS's reply (mysqladmin status), in MySQL's form.
func (s *Server) statistics() string {
	up := time.Since(s.started).Seconds()
	q := s.questions.Load()
	threads := len(s.cfg.Engine.Sessions())
	slow := s.cfg.Engine.Database().Counters.SlowQueries()
	return fmt.Sprintf("Uptime: %d  Threads: %d  Questions: %d  Slow queries: %d  Opens: 0  Open tables: 0  Queries per second avg: %.3f",
		int64(up), threads, q, slow, float64(q)/max(up, 1))
}
