package sql

import "sort"

// transport is how the session's client is connected, for the session
// status variables Ssl_version and Ssl_cipher ("" without TLS).
type transport struct {
	tlsVersion, cipher string
}

// SetTransport records the connection's TLS version ("TLSv1.3") and
// cipher (OpenSSL's name), as the server negotiated them at login.
func (s *Session) SetTransport(tlsVersion, cipher string) {
	s.transport = transport{tlsVersion: tlsVersion, cipher: cipher}
}

// withSessionStatus adds the session's own status variables to the
// engine's rows (sorted by name, as SHOW STATUS lists them). Like
// MySQL's, they show the current connection's values.
func (s *Session) withSessionStatus(rows [][2]string) [][2]string {
	rows = append(rows,
		[2]string{"Ssl_cipher", s.transport.cipher},
		[2]string{"Ssl_version", s.transport.tlsVersion})
	sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return rows
}
