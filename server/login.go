package server

import (
	"errors"
	"fmt"
	"net"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/plrun/plrun/sql/acl"
)

// Compatibility modes (Config.Compat, `plrun serve --compat`).
const (
	// CompatMySQL (the default) announces the session's status in the
	// handshake, as MySQL and MariaDB do.
	CompatMySQL = ""
	// CompatOceanBase announces no status flags in the handshake, as the
	// OceanBase server seed 000 ran against does. pymysql then believes
	// its sessions start without autocommit and so never sends
	// SET autocommit=0: they stay in autocommit, which seed 000's verbatim
	// ob_elr.py (it never calls commit()) relies on to commit its updates.
	CompatOceanBase = "oceanbase"
)

// connect runs the connection phase of c over p: the initial handshake
// (connection id = the session id), the client's response, the
// authentication (with an auth switch if the client started with another
// method) and the default database. On failure the client has been sent
// its error; the caller closes the socket.
func (s *Server) connect(c *conn, p *packetConn) (*wire, error) {
	salt := mysql.RandomBuf(20)
	c.salt = salt
	var status uint16
	if s.cfg.Compat != CompatOceanBase && c.session.Autocommit() {
		status |= mysql.SERVER_STATUS_AUTOCOMMIT
	}
	if err := p.writePacket(initialHandshake(uint32(c.session.ID()), salt, status, s.cfg.AuthPlugin, s.capabilities())); err != nil {
		return nil, err
	}
	w := &wire{packetConn: p, status: status}
	resp, err := readHandshakeResponse(w)
	if err != nil {
		return nil, err
	}
	if resp.sslRequest {
		if err := s.startTLS(c, p); err != nil {
			s.cfg.Logger.Warn("connection refused", "id", c.session.ID(), "host", c.nc.RemoteAddr().String(), "reason", err.Error())
			return nil, err
		}
		if resp, err = readHandshakeResponse(w); err != nil {
			return nil, err
		}
		if resp.sslRequest { // a second SSLRequest, inside TLS
			_ = w.writeError(errHandshake)
			return nil, errHandshake
		}
	}
	if !c.secure && c.requireSecureTransport() {
		s.logLoginFailed(resp.user, c.nc, "insecure transport (require_secure_transport)")
		_ = w.writeError(errSecureTransportRequired)
		return nil, errSecureTransportRequired
	}
	w.capability = resp.capability & s.capabilities()
	w.user = resp.user
	acct, err := s.authenticate(w, c, salt, resp.user, resp.plugin, resp.auth, resp.capability)
	if err != nil {
		return nil, err
	}
	c.session.SetAccount(s.cfg.Engine.Accounts().GrantsFor(acct.User, acct.Host))
	if resp.db != "" {
		if err := c.session.UseDB(resp.db); err != nil {
			s.logLoginFailed(resp.user, c.nc, "unknown database "+resp.db)
			_ = w.writeError(toMyError(err))
			return nil, err
		}
	} else {
		c.session.ClearDB()
	}
	if err := w.writeOK(nil); err != nil {
		return nil, err
	}
	w.resetSequence() // the first command starts a new sequence
	return w, nil
}

// readHandshakeResponse reads and decodes the client's handshake response
// (or SSLRequest); one it cannot read is answered errHandshake.
func readHandshakeResponse(w *wire) (handshakeResponse, error) {
	data, err := w.readPacket()
	if err != nil {
		return handshakeResponse{}, err
	}
	resp, err := parseHandshakeResponse(data)
	if err != nil {
		_ = w.writeError(errHandshake)
	}
	return resp, err
}

// authenticate checks a login (the handshake's, or COM_CHANGE_USER's)
// against the account catalog and writes what the method needs before
// the final OK, or the error; it returns the account the login matched.
// The method is the matched account's plugin (the server's default for
// a name no account has, so a probe learns nothing); a client that
// started with another gets an auth switch. plugin is the method the
// client used ("" if it named none).
func (s *Server) authenticate(w *wire, c *conn, salt []byte, user, plugin string, auth []byte, clientCaps uint32) (*acl.Account, error) {
	acct := s.cfg.Engine.Accounts().Current().MatchLogin(user, clientHost(c.nc))
	method := s.cfg.AuthPlugin
	if acct != nil {
		method = acct.Plugin
	}
	if clientCaps&mysql.CLIENT_PLUGIN_AUTH == 0 {
		if method != mysql.AUTH_NATIVE_PASSWORD {
			acct = nil // a client that cannot switch cannot answer this account's method
		}
		method = mysql.AUTH_NATIVE_PASSWORD
	} else if plugin != method {
		// AuthSwitchRequest: the method and a fresh scramble.
		salt = mysql.RandomBuf(20)
		req := append([]byte{mysql.EOF_HEADER}, method...)
		req = append(append(append(req, 0), salt...), 0)
		if err := w.writePacket(req); err != nil {
			return nil, err
		}
		data, err := w.readPacket()
		if err != nil {
			return nil, err
		}
		auth = data
	}
	sec := accountSecrets{cat: s.cfg.Engine.Accounts(), acct: acct}
	if method == mysql.AUTH_CACHING_SHA2_PASSWORD {
		if err := s.cachingSha2(w, c, sec, salt, user, auth); err != nil {
			return nil, err
		}
		return acct, nil
	}
	if !sec.CheckNative(user, salt, auth) {
		return nil, s.deny(w, c, user, len(auth) > 0)
	}
	return acct, nil
}

// deny refuses a login with 1045.
func (s *Server) deny(w *wire, c *conn, user string, usedPassword bool) error {
	reason := "wrong password"
	switch {
	case s.cfg.Engine.Accounts().Current().MatchLogin(user, clientHost(c.nc)) == nil:
		reason = "no such account"
	case !usedPassword:
		reason = "no password given"
	}
	s.logLoginFailed(user, c.nc, reason)
	e := accessDenied(user, c.nc, usedPassword)
	_ = w.writeError(e)
	return e
}

// clientHost is the client's address without its port, as accounts'
// host patterns match it.
func clientHost(nc net.Conn) string {
	host := nc.RemoteAddr().String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return host
}

// accessDenied is MySQL's 1045, naming the client's host without its port
// and whether the client sent a password.
func accessDenied(user string, nc net.Conn, usedPassword bool) *mysql.MyError {
	host := nc.RemoteAddr().String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	using := "NO"
	if usedPassword {
		using = "YES"
	}
	return mysql.NewError(mysql.ER_ACCESS_DENIED_ERROR,
		fmt.Sprintf("Access denied for user '%s'@'%s' (using password: %s)", user, host, using))
}

// changeUser is COM_CHANGE_USER: a new login on the same connection. The
// client scrambled its password with the handshake's salt unless it names
// another method, which gets an auth switch. On success the session is
// reset (same connection id) and moved to the requested database.
func (c *conn) changeUser(data []byte) error {
	req, err := parseChangeUser(data, c.wire.capability)
	if err != nil {
		return c.wire.writeError(errMalformed)
	}
	c.session.Reset()
	clear(c.stmts)
	acct, err := c.srv.authenticate(c.wire, c, c.salt, req.user, req.plugin, req.auth, c.wire.capability)
	if err != nil {
		var my *mysql.MyError
		if errors.As(err, &my) {
			return errChangeUserFailed // MySQL closes the connection
		}
		return err
	}
	c.wire.user = req.user
	c.session.SetClient(req.user, c.nc.RemoteAddr().String())
	c.session.SetAccount(c.srv.cfg.Engine.Accounts().GrantsFor(acct.User, acct.Host))
	if req.db != "" {
		if err := c.session.UseDB(req.db); err != nil {
			return c.reply(nil, err)
		}
	} else {
		c.session.ClearDB()
	}
	return c.reply(nil, nil)
}

// errChangeUserFailed ends a connection whose COM_CHANGE_USER was refused.
var errChangeUserFailed = errors.New("change user refused")
