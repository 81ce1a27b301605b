package server

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"reflect"
	"sync"
	"time"
	"unsafe"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/packet"
	gms "github.com/go-mysql-org/go-mysql/server"

	plsql "github.com/plrun/plrun/sql"
)

// ServerVersion is what the handshake announces; clients only print it.
const ServerVersion = "8.0.36-plrun"

// DefaultMaxConnections bounds concurrent connections when Config leaves it 0.
const DefaultMaxConnections = 1000

// Config configures a Server.
type Config struct {
	Engine *plsql.Engine
	// Users are the accepted logins; there is no anonymous access.
	Users Users
	// MaxConnections bounds concurrent connections (0 = DefaultMaxConnections);
	// past it a client gets 1040 Too many connections.
	MaxConnections int
	// AuthPlugin is the authentication method the server asks for:
	// "mysql_native_password" (default) or "caching_sha2_password".
	// Clients that start with the other one are switched. Under
	// caching_sha2_password (no TLS, so fast authentication only), a
	// "user@tenant" login must be configured under that exact name.
	AuthPlugin string
	// Logf reports connection-level failures; nil logs with package log.
	Logf func(format string, args ...any)
}

// Server serves the MySQL protocol for one engine.
type Server struct {
	cfg   Config
	proto *gms.Server
	creds gms.CredentialProvider

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
	if len(cfg.Users) == 0 {
		return nil, errors.New("server: no users configured")
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
	if cfg.Logf == nil {
		cfg.Logf = log.Printf
	}
	s := &Server{cfg: cfg}
	switch cfg.AuthPlugin {
	case mysql.AUTH_NATIVE_PASSWORD:
		s.creds = credentials{users: cfg.Users}
	case mysql.AUTH_CACHING_SHA2_PASSWORD:
		// go-mysql answers caching_sha2_password's fast path itself only
		// for its in-memory provider; anything else needs a full
		// authentication over TLS or RSA, which plrun does not set up.
		p := gms.NewInMemoryProvider()
		for name, pw := range cfg.Users {
			p.AddUser(name, pw)
		}
		s.creds = p
	default:
		return nil, fmt.Errorf("server: unsupported auth plugin %q", cfg.AuthPlugin)
	}
	s.proto = gms.NewServer(ServerVersion, charsetUTF8MB4, cfg.AuthPlugin, nil, nil)
	if err := addCapabilities(s.proto, mysql.CLIENT_MULTI_STATEMENTS|mysql.CLIENT_MULTI_RESULTS|mysql.CLIENT_PS_MULTI_RESULTS); err != nil {
		return nil, err
	}
	s.mu.conns = map[*conn]struct{}{}
	s.mu.listeners = map[net.Listener]struct{}{}
	return s, nil
}

// addCapabilities adds capability flags to those go-mysql announces.
//
// Clients keep only the capabilities the server announces, and go-mysql
// (v1.13.0) announces neither multi-statements nor multi-results, nor
// offers a setter; without them go-sql-driver and libmariadb would refuse
// multi-statement batches and CALL's several results. The flags describe
// what plrun's own dispatch (conn.go) implements.
func addCapabilities(proto *gms.Server, flags uint32) error {
	f := reflect.ValueOf(proto).Elem().FieldByName("capability")
	if !f.IsValid() || f.Kind() != reflect.Uint32 {
		return errors.New("server: go-mysql's Server has no capability field; update addCapabilities")
	}
	p := (*uint32)(unsafe.Pointer(f.UnsafeAddr()))
	*p |= flags
	return nil
}

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
func (s *Server) ServeConn(nc net.Conn) {
	c, ok := s.register(nc)
	if !ok {
		return
	}
	defer s.active.Done()
	defer s.unregister(c)
	defer nc.Close()
	defer func() { c.session.Close() }() // resetSession may replace it

	wire, err := s.proto.NewCustomizedConn(c.sock, s.creds, c)
	if err != nil {
		return // go-mysql already sent the client its error (1045 ...)
	}
	c.mu.Lock()
	c.wire = wire
	c.mu.Unlock()
	c.session.SetClient(wire.GetUser(), nc.RemoteAddr().String())
	c.serve()
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
	}
	if refuse != nil {
		go refuseConn(nc, refuse) // never block the lock on a slow client
		return nil, false
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{
		srv:     s,
		session: s.cfg.Engine.NewSession(),
		sock:    &countingConn{Conn: nc},
		ctx:     ctx,
		cancel:  cancel,
		stmts:   map[uint32]*preparedStmt{},
	}
	c.drainMark.Store(noDrainMark)
	s.mu.conns[c] = struct{}{}
	s.active.Add(1)
	return c, true
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
	pc := packet.NewConn(nc)
	data := make([]byte, 4, 16+len(e.Message))
	data = append(data, mysql.ERR_HEADER, byte(e.Code), byte(e.Code>>8), '#')
	data = append(data, e.State...)
	data = append(data, e.Message...)
	_ = pc.WritePacket(data)
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
// Shutdown with c.mu held.
func (c *conn) wake() {
	_ = c.sock.SetReadDeadline(time.Now())
}
