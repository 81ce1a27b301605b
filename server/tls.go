package server

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// TLS on the MySQL port. The server announces CLIENT_SSL when Config.TLS
// is set; a client that wants TLS answers the initial handshake with an
// SSLRequest (the handshake response's 32-byte fixed header alone), then
// starts a TLS handshake on the same socket, and sends its real handshake
// response over TLS, continuing the packet sequence. Everything after the
// SSLRequest, including the rest of the connection, runs over TLS.

// tlsHandshakeTimeout bounds the TLS handshake: a client that sends
// nothing, or garbage that looks like the start of a record, cannot hold
// a connection (and a max_connections slot) for ever. A variable for tests.
var tlsHandshakeTimeout = 10 * time.Second

// errSecureTransportRequired is MySQL's 3159, for a login without TLS
// while require_secure_transport is ON.
var errSecureTransportRequired = mysql.NewError(sqlerr.ErSecureTransportRequired, "Connections using insecure transport are prohibited while --require_secure_transport=ON.")

// errSSLNotOffered is a client's SSLRequest to a server without TLS: only
// a client that ignores the handshake's capabilities sends one.
var errSSLNotOffered = errors.New("client requested TLS, which this server does not offer (no TLS configured)")

// capabilities are the flags the handshake announces.
func (s *Server) capabilities() uint32 {
	if s.cfg.TLS != nil {
		return serverCapabilities | mysql.CLIENT_SSL
	}
	return serverCapabilities
}

// startTLS upgrades c's connection after the client's SSLRequest: the TLS
// handshake (bounded by tlsHandshakeTimeout), then p reads and writes
// through TLS. A failed handshake ends the connection, logged with why.
func (s *Server) startTLS(c *conn, p *packetConn) error {
	if s.cfg.TLS == nil {
		return errSSLNotOffered
	}
	// The client may have sent its ClientHello right behind the
	// SSLRequest: what the packet reader buffered belongs to TLS.
	var early []byte
	if n := p.r.Buffered(); n > 0 {
		b, _ := p.r.Peek(n)
		early = append(early, b...)
	}
	tc := tls.Server(&prefixConn{Conn: c.sock, prefix: early}, s.cfg.TLS)
	ctx, cancel := context.WithTimeout(c.ctx, tlsHandshakeTimeout)
	defer cancel()
	_ = c.sock.SetDeadline(time.Now().Add(tlsHandshakeTimeout))
	err := tc.HandshakeContext(ctx)
	_ = c.sock.SetDeadline(time.Time{})
	if err != nil {
		return fmt.Errorf("TLS handshake: %w", err)
	}
	p.useConn(tc)
	st := tc.ConnectionState()
	c.secure = true
	c.session.SetTransport(tlsVersionName(st.Version), cipherName(st.CipherSuite))
	return nil
}

// useConn makes p read and write through nc (a TLS connection over the
// socket p used). p holds no unread or unwritten bytes at this point.
func (p *packetConn) useConn(nc net.Conn) {
	p.nc = nc
	p.sock = &socketReader{nc: nc}
	p.r = bufio.NewReaderSize(p.sock, 16<<10)
	p.w = bufio.NewWriterSize(nc, 16<<10)
}

// prefixConn is a socket whose first bytes were already read (into the
// packet reader's buffer): Read returns them first.
type prefixConn struct {
	net.Conn
	prefix []byte
}

func (c *prefixConn) Read(b []byte) (int, error) {
	if len(c.prefix) > 0 {
		n := copy(b, c.prefix)
		c.prefix = c.prefix[n:]
		return n, nil
	}
	return c.Conn.Read(b)
}

// requireSecureTransport reports whether require_secure_transport is ON.
func (c *conn) requireSecureTransport() bool {
	return c.session.SysVar(sysvar.Defs["require_secure_transport"], true) == "ON"
}

// tlsVersionName is a TLS version as MySQL's Ssl_version and tls_version
// name it.
func tlsVersionName(v uint16) string {
	switch v {
	case tls.VersionTLS12:
		return "TLSv1.2"
	case tls.VersionTLS13:
		return "TLSv1.3"
	}
	return tls.VersionName(v)
}

// openSSLCiphers are the TLS 1.2 suites Go's server negotiates, by the
// OpenSSL names MySQL's Ssl_cipher shows. TLS 1.3 suites have one name.
var openSSLCiphers = map[uint16]string{
	tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256:         "ECDHE-RSA-AES128-GCM-SHA256",
	tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384:         "ECDHE-RSA-AES256-GCM-SHA384",
	tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256:   "ECDHE-RSA-CHACHA20-POLY1305",
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256:       "ECDHE-ECDSA-AES128-GCM-SHA256",
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384:       "ECDHE-ECDSA-AES256-GCM-SHA384",
	tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: "ECDHE-ECDSA-CHACHA20-POLY1305",
	tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA:            "ECDHE-RSA-AES128-SHA",
	tls.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA:            "ECDHE-RSA-AES256-SHA",
}

func cipherName(id uint16) string {
	if n, ok := openSSLCiphers[id]; ok {
		return n
	}
	return tls.CipherSuiteName(id)
}
