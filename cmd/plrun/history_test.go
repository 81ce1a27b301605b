package main

import "testing"

// A statement with a password never reaches the REPL's history file.
func TestHistoryLeavesOutPasswords(t *testing.T) {
	for stmt, want := range map[string]bool{
		"SELECT 1":                                true,
		"CREATE USER u":                           true,
		"CREATE USER u IDENTIFIED BY 'pw'":        false,
		"ALTER USER u IDENTIFIED BY 'pw'":         false,
		"SET PASSWORD FOR u = PASSWORD('pw')":     false,
		"GRANT ALL ON *.* TO u IDENTIFIED BY 'x'": false,
	} {
		if got := keepsInHistory(stmt); got != want {
			t.Errorf("keepsInHistory(%q) = %v, want %v", stmt, got, want)
		}
	}
}
