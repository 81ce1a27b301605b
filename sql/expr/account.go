package expr

import "net"

// Account is the session's login as MySQL's access errors name it:
// 'user'@'host', without the client's port.
func (e *Env) Account() string {
	if e.owner == nil {
		return "''@''"
	}
	user, host := e.owner.Client()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return "'" + user + "'@'" + host + "'"
}
