package sql

// BeginInteractive gives a session whose client announced
// CLIENT_INTERACTIVE (the mysql command line) the global
// interactive_timeout as its wait_timeout, as MariaDB does at login.
func (s *Session) BeginInteractive() {
	s.vars["wait_timeout"] = s.database.Globals.Get("interactive_timeout")
}
