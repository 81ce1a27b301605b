package server

import (
	"bytes"
	"crypto/tls"
	gosql "database/sql"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"

	gomysql "github.com/go-sql-driver/mysql"
)

// tlsDSN registers a go-sql-driver TLS configuration trusting the CA in
// file ca under name and returns a DSN using it.
func (ts *testServer) tlsDSN(t testing.TB, name, ca, user, password string) string {
	t.Helper()
	if err := gomysql.RegisterTLSConfig(name, &tls.Config{RootCAs: caPool(t, ca)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gomysql.DeregisterTLSConfig(name) })
	return ts.dsn(user, password, "test", "tls="+name)
}

func sessionStatus(t *testing.T, db *gosql.DB, name string) string {
	t.Helper()
	var n, v string
	if err := db.QueryRow("SHOW STATUS LIKE '"+name+"'").Scan(&n, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTLSGoDriver: go-sql-driver with tls=custom and the generated CA
// connects (the certificate names 127.0.0.1), and the session's status
// says TLS; without TLS the same server answers in clear, with empty
// Ssl_* values.
func TestTLSGoDriver(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServer(t, Config{TLS: cfg}, map[string]string{"have_ssl": "YES"})
	db, err := gosql.Open("mysql", ts.tlsDSN(t, "plrun-ca", ca, "root", "root"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if v := sessionStatus(t, db, "Ssl_version"); v != "TLSv1.3" {
		t.Errorf("Ssl_version %q, want TLSv1.3", v)
	}
	if v := sessionStatus(t, db, "Ssl_cipher"); !strings.HasPrefix(v, "TLS_") {
		t.Errorf("Ssl_cipher %q", v)
	}
	var have string
	if err := db.QueryRow("SELECT @@have_ssl").Scan(&have); err != nil || have != "YES" {
		t.Errorf("have_ssl %q, %v", have, err)
	}
	plain := ts.open(t)
	plain.SetMaxOpenConns(1)
	if v := sessionStatus(t, plain, "Ssl_version"); v != "" {
		t.Errorf("plain connection: Ssl_version %q", v)
	}
}

// TestTLS12: a client limited to TLS 1.2 gets it, with the cipher by
// OpenSSL's name as MySQL shows it; TLS 1.1 is refused.
func TestTLS12(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServer(t, Config{TLS: cfg}, nil)
	if err := gomysql.RegisterTLSConfig("plrun-tls12", &tls.Config{RootCAs: caPool(t, ca), MaxVersion: tls.VersionTLS12}); err != nil {
		t.Fatal(err)
	}
	defer gomysql.DeregisterTLSConfig("plrun-tls12")
	db, _ := gosql.Open("mysql", ts.dsn("root", "root", "test", "tls=plrun-tls12"))
	defer db.Close()
	db.SetMaxOpenConns(1)
	if v := sessionStatus(t, db, "Ssl_version"); v != "TLSv1.2" {
		t.Errorf("Ssl_version %q", v)
	}
	if v := sessionStatus(t, db, "Ssl_cipher"); !strings.HasPrefix(v, "ECDHE-") {
		t.Errorf("Ssl_cipher %q, want an OpenSSL name", v)
	}
	if err := gomysql.RegisterTLSConfig("plrun-tls11", &tls.Config{RootCAs: caPool(t, ca), MaxVersion: tls.VersionTLS11}); err != nil {
		t.Fatal(err)
	}
	defer gomysql.DeregisterTLSConfig("plrun-tls11")
	old, _ := gosql.Open("mysql", ts.dsn("root", "root", "test", "tls=plrun-tls11"))
	defer old.Close()
	if err := old.Ping(); err == nil {
		t.Error("TLS 1.1 accepted")
	}
}

// sslRequest is the 32-byte SSLRequest with caps (plus CLIENT_SSL).
func sslRequest(caps uint32) []byte {
	b := binary.LittleEndian.AppendUint32(nil, caps|mysql.CLIENT_SSL)
	b = binary.LittleEndian.AppendUint32(b, 1<<24)
	b = append(b, charsetUTF8MB4)
	return append(b, make([]byte, 23)...)
}

const rawCaps = mysql.CLIENT_PROTOCOL_41 | mysql.CLIENT_SECURE_CONNECTION | mysql.CLIENT_PLUGIN_AUTH |
	mysql.CLIENT_CONNECT_WITH_DB | mysql.CLIENT_MULTI_RESULTS

// startTLS sends the SSLRequest and runs the client's TLS handshake; the
// raw client then speaks over TLS.
func (rc *rawClient) startTLS(ca string) {
	rc.t.Helper()
	caps := binary.LittleEndian.Uint16(rc.handshake[len(ServerVersion)+2+4+9:])
	if uint32(caps)&mysql.CLIENT_SSL == 0 {
		rc.t.Fatal("handshake does not announce CLIENT_SSL")
	}
	rc.write(sslRequest(rawCaps))
	tc := tls.Client(rc.nc, &tls.Config{RootCAs: caPool(rc.t, ca), ServerName: "127.0.0.1"})
	if err := tc.Handshake(); err != nil {
		rc.t.Fatal(err)
	}
	seq := rc.pc.seq
	rc.pc = newPacketConn(tc)
	rc.pc.seq = seq
}

// sha2Login sends a caching_sha2_password handshake response and returns
// the server's first answer.
func (rc *rawClient) sha2Login(user, password string) []byte {
	rc.t.Helper()
	b := binary.LittleEndian.AppendUint32(nil, rawCaps)
	b = binary.LittleEndian.AppendUint32(b, 1<<24)
	b = append(b, charsetUTF8MB4)
	b = append(b, make([]byte, 23)...)
	b = append(append(b, user...), 0)
	auth := mysql.CalcCachingSha2Password(rc.salt, password)
	b = append(append(b, byte(len(auth))), auth...)
	b = append(append(b, "test"...), 0)
	b = append(append(b, mysql.AUTH_CACHING_SHA2_PASSWORD...), 0)
	rc.write(b)
	return rc.read()
}

// TestCachingSha2FullAuthOverTLS: the first login of an account runs the
// full authentication (0x01 0x04, then the password in clear over TLS);
// the second is fast authentication (0x01 0x03) from the cache the first
// filled; a wrong scramble misses the cache and a wrong password is
// 1045. The server has no RSA key: TLS is what carries the password.
func TestCachingSha2FullAuthOverTLS(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServerAs(t, Config{TLS: cfg, AuthPlugin: mysql.AUTH_CACHING_SHA2_PASSWORD}, nil)
	login := func(password, sent string) (first, final []byte) {
		rc := dialRaw(t, ts.addr)
		rc.startTLS(ca)
		first = rc.sha2Login("root", sent)
		if string(first) == "\x01\x04" {
			rc.write(append([]byte(password), 0))
		}
		return first, rc.read()
	}
	if first, final := login("root", "root"); string(first) != "\x01\x04" || final[0] != mysql.OK_HEADER {
		t.Fatalf("first login: %q then %q, want full authentication then OK", first, final)
	}
	if first, final := login("root", "root"); string(first) != "\x01\x03" || final[0] != mysql.OK_HEADER {
		t.Fatalf("second login: %q then %q, want fast auth success then OK", first, final)
	}
	if first, final := login("wrong", "wrong"); string(first) != "\x01\x04" || errCode(final) != 1045 {
		t.Fatalf("wrong password: %q then %q, want full authentication then 1045", first, final)
	}
	// go-sql-driver runs the same exchange over TLS.
	db, _ := gosql.Open("mysql", ts.tlsDSN(t, "plrun-sha2", ca, "root", "root"))
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
}

// TestCachingSha2WithoutTLS: without TLS the password travels RSA
// encrypted (go-sql-driver asks for the public key); a server with
// neither TLS nor an RSA key refuses the full authentication with 1045
// rather than read a password in clear.
func TestCachingSha2WithoutTLS(t *testing.T) {
	ts := startServer(t, Config{AuthPlugin: mysql.AUTH_CACHING_SHA2_PASSWORD}, nil)
	rc := dialRaw(t, ts.addr)
	if first := rc.sha2Login("root", "root"); string(first) != "\x01\x04" {
		t.Fatalf("first login: %q", first)
	}
	rc.write([]byte{sha2RequestPublicKey})
	if key := rc.read(); key[0] != mysql.MORE_DATE_HEADER || !strings.Contains(string(key), "BEGIN PUBLIC KEY") {
		t.Fatalf("public key reply %q", key)
	}

	bare := startServerAs(t, Config{AuthPlugin: mysql.AUTH_CACHING_SHA2_PASSWORD}, nil)
	rc = dialRaw(t, bare.addr)
	if first := rc.sha2Login("root", "root"); string(first) != "\x01\x04" {
		t.Fatalf("first login: %q", first)
	}
	rc.write(append([]byte("root"), 0)) // a password in clear: not read
	if reply := rc.read(); errCode(reply) != 1045 || !strings.Contains(string(reply), "(using password: YES)") {
		t.Fatalf("clear password without TLS: %q, want 1045", reply)
	}
	db, _ := gosql.Open("mysql", bare.dsn("root", "root", "test"))
	defer db.Close()
	if err := db.Ping(); err == nil {
		t.Fatal("login without TLS or RSA succeeded")
	}
}

// TestRequireSecureTransport: ON refuses a login without TLS with
// MySQL's 3159 and lets a TLS login in; a server without TLS refuses to
// turn it ON (MariaDB's 4167), as it would lock every client out.
func TestRequireSecureTransport(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServer(t, Config{TLS: cfg}, map[string]string{"have_ssl": "YES"})
	secure, _ := gosql.Open("mysql", ts.tlsDSN(t, "plrun-rst", ca, "root", "root"))
	defer secure.Close()
	mustExec(t, secure, "SET GLOBAL require_secure_transport = ON")
	plain, _ := gosql.Open("mysql", ts.dsn("root", "root", "test"))
	defer plain.Close()
	var me *gomysql.MySQLError
	err := plain.Ping()
	if !errors.As(err, &me) || me.Number != 3159 || string(me.SQLState[:]) != "HY000" ||
		me.Message != "Connections using insecure transport are prohibited while --require_secure_transport=ON." {
		t.Fatalf("plain login: %v, want 3159", err)
	}
	secure2, _ := gosql.Open("mysql", ts.tlsDSN(t, "plrun-rst2", ca, "root", "root"))
	defer secure2.Close()
	if err := secure2.Ping(); err != nil {
		t.Fatalf("TLS login: %v", err)
	}
	mustExec(t, secure, "SET GLOBAL require_secure_transport = OFF")
	if err := plain.Ping(); err != nil {
		t.Fatalf("plain login after OFF: %v", err)
	}

	bare := startServer(t, Config{}, nil)
	_, err = bare.open(t).Exec("SET GLOBAL require_secure_transport = ON")
	mysqlError(t, err, 4167, "HY000")
}

// TestTLSBadInput: a truncated SSLRequest, an SSLRequest to a server
// without TLS, garbage instead of a ClientHello and a client that stops
// mid-handshake each end their connection (no panic, no hang past the
// handshake deadline); the server goes on serving.
func TestTLSBadInput(t *testing.T) {
	old := tlsHandshakeTimeout
	tlsHandshakeTimeout = 300 * time.Millisecond
	t.Cleanup(func() { tlsHandshakeTimeout = old })
	cfg, ca := testTLS(t)
	ts := startServer(t, Config{TLS: cfg}, nil)
	bare := startServer(t, Config{}, nil)
	closed := func(rc *rawClient, what string) {
		t.Helper()
		_ = rc.nc.SetReadDeadline(time.Now().Add(20 * time.Second))
		var buf [256]byte
		for {
			_, err := rc.nc.Read(buf[:])
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("%s: connection still open", what)
			}
			if err != nil {
				return
			}
		}
	}
	rc := dialRaw(t, ts.addr)
	rc.write(sslRequest(rawCaps)[:20])
	if reply := rc.read(); errCode(reply) != mysql.ER_HANDSHAKE_ERROR {
		t.Errorf("truncated SSLRequest: %q", reply)
	}
	closed(rc, "truncated SSLRequest")

	rc = dialRaw(t, ts.addr)
	rc.write(sslRequest(rawCaps))
	if _, err := rc.nc.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	closed(rc, "garbage ClientHello")

	rc = dialRaw(t, ts.addr)
	rc.write(sslRequest(rawCaps))
	if _, err := rc.nc.Write([]byte{0x16, 0x03, 0x01, 0x02, 0x00}); err != nil { // a record header, then silence
		t.Fatal(err)
	}
	closed(rc, "stalled ClientHello")

	rc = dialRaw(t, ts.addr)
	rc.write(sslRequest(rawCaps))
	closed(rc, "no ClientHello at all") // the deadline ends it

	rc = dialRaw(t, bare.addr)
	rc.write(sslRequest(rawCaps))
	closed(rc, "SSLRequest without TLS")

	// A second SSLRequest inside TLS is a bad handshake.
	rc = dialRaw(t, ts.addr)
	rc.startTLS(ca)
	rc.write(sslRequest(rawCaps))
	if reply := rc.read(); errCode(reply) != mysql.ER_HANDSHAKE_ERROR {
		t.Errorf("second SSLRequest: %q", reply)
	}

	db, _ := gosql.Open("mysql", ts.tlsDSN(t, "plrun-bad", ca, "root", "root"))
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Fatalf("server after bad clients: %v", err)
	}
	if ts.srv.Panics() != 0 {
		t.Fatal("a connection panicked")
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTLSFailureLogged: a failed TLS handshake is in the error log with
// the connection, the client's host and why.
func TestTLSFailureLogged(t *testing.T) {
	var log syncBuffer
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := testTLS(t)
	srv, err := New(Config{Engine: e, Users: Users{"root": "root"}, TLS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	client, server := net.Pipe()
	done := make(chan struct{})
	go func() { srv.ServeConn(server); close(done) }()
	pc := newPacketConn(client)
	if _, err := pc.readPacket(); err != nil { // the handshake
		t.Fatal(err)
	}
	pc.writePacket(sslRequest(rawCaps))
	pc.flush()
	go io.Copy(io.Discard, client)
	client.Write([]byte("this is no ClientHello, not at all\r\n"))
	client.Close()
	<-done
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	got := log.String()
	if !strings.Contains(got, "connection refused") || !strings.Contains(got, "TLS handshake") || !strings.Contains(got, "host=pipe") {
		t.Fatalf("error log:\n%s", got)
	}
}

// TestChangeUserOverTLS: COM_CHANGE_USER on a TLS connection under
// caching_sha2_password runs the full authentication for a login the
// cache does not hold (the password in clear, over TLS), and the session
// keeps its TLS status.
func TestChangeUserOverTLS(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServerAs(t, Config{TLS: cfg, AuthPlugin: mysql.AUTH_CACHING_SHA2_PASSWORD, Users: Users{"root": "root", "bob": "pw"}}, nil)
	rc := dialRaw(t, ts.addr)
	rc.startTLS(ca)
	if first := rc.sha2Login("root", "root"); string(first) != "\x01\x04" {
		t.Fatalf("login: %q", first)
	}
	rc.write(append([]byte("root"), 0))
	if ok := rc.read(); ok[0] != mysql.OK_HEADER {
		t.Fatalf("login: %q", ok)
	}
	b := append([]byte{mysql.COM_CHANGE_USER}, "bob"...)
	auth := mysql.CalcCachingSha2Password(rc.salt, "pw")
	b = append(append(append(b, 0), byte(len(auth))), auth...)
	b = append(append(b, "test"...), 0)
	b = append(b, charsetUTF8MB4, 0)
	b = append(append(b, mysql.AUTH_CACHING_SHA2_PASSWORD...), 0)
	rc.pc.resetSequence()
	rc.write(b)
	if first := rc.read(); string(first) != "\x01\x04" {
		t.Fatalf("change user: %q, want full authentication", first)
	}
	rc.write(append([]byte("pw"), 0))
	if ok := rc.read(); ok[0] != mysql.OK_HEADER {
		t.Fatalf("change user: %q", ok)
	}
	if v := firstValue(t, rc.query("SELECT USER()")); !strings.HasPrefix(v, "bob@") {
		t.Errorf("USER() = %q after COM_CHANGE_USER", v)
	}
	reply := rc.query("SHOW STATUS LIKE 'Ssl_version'")
	if len(reply) < 5 || !strings.Contains(string(reply[4]), "TLSv1.3") {
		t.Errorf("Ssl_version after COM_CHANGE_USER: %q", reply)
	}
}
