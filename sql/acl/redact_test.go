package acl

import "testing"

func TestRedactSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"CREATE USER u IDENTIFIED BY 'pw'":                                                 "CREATE USER u IDENTIFIED BY <secret>",
		"create user u identified with caching_sha2_password by \"p'w\"":                   "create user u identified with caching_sha2_password by <secret>",
		"ALTER USER u IDENTIFIED BY 'it''s', v IDENTIFIED BY 'x\\'y'":                      "ALTER USER u IDENTIFIED BY <secret>, v IDENTIFIED BY <secret>",
		"SET PASSWORD FOR u@'%' = PASSWORD('pw')":                                          "SET PASSWORD FOR u@'%' = PASSWORD(<secret>)",
		"SET PASSWORD = 'pw'":                                                              "SET PASSWORD = <secret>",
		"GRANT SELECT ON *.* TO u IDENTIFIED BY 'pw'":                                      "GRANT SELECT ON *.* TO u IDENTIFIED BY <secret>",
		"CREATE USER u IDENTIFIED BY PASSWORD '*94BDCEBE19083CE2A1F959FD02F964C7AF4CFC29'": "CREATE USER u IDENTIFIED BY PASSWORD '*94BDCEBE19083CE2A1F959FD02F964C7AF4CFC29'",
		"SELECT 'IDENTIFIED'":                                                              "SELECT 'IDENTIFIED'",
		"SELECT 1":                                                                         "SELECT 1",
	} {
		if got := RedactSecrets(in); got != want {
			t.Errorf("RedactSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}
