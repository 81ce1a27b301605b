package server

import (
	"bytes"
	"context"
	gosql "database/sql"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql/acl"
)

// login opens a connection as user/password and reports the Ping's error.
func (ts *testServer) login(t *testing.T, user, password string) (*gosql.DB, error) {
	t.Helper()
	db, err := gosql.Open("mysql", ts.dsn(user, password, ""))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	t.Cleanup(func() { db.Close() })
	return db, nil
}

func queryString(t *testing.T, db *gosql.DB, q string) string {
	t.Helper()
	var s string
	if err := db.QueryRow(q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

// A login is checked against the catalog: CREATE USER makes one, ALTER
// USER and SET PASSWORD change its password, DROP USER ends it, and the
// 1045 names the user and the client's host as MySQL does.
func TestAccountLogins(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	root := ts.open(t)
	mustExec(t, root, "CREATE USER app@'127.0.0.1' IDENTIFIED BY 'apw', app@'10.%' IDENTIFIED BY 'other'")
	mustExec(t, root, "GRANT SELECT ON test.* TO app@'127.0.0.1'")

	app, err := ts.login(t, "app", "apw")
	if err != nil {
		t.Fatalf("new account's login: %v", err)
	}
	if got := queryString(t, app, "SELECT CONCAT(CURRENT_USER(), ' ', USER())"); got != "app@127.0.0.1 app@127.0.0.1" {
		t.Errorf("CURRENT_USER(), USER() = %s", got)
	}
	if got, want := queryString(t, app, "SHOW GRANTS"), "GRANT USAGE ON *.* TO `app`@`127.0.0.1` IDENTIFIED BY PASSWORD '"+acl.NativeHash("apw")+"'"; got != want {
		t.Errorf("SHOW GRANTS = %s, want %s", got, want)
	}
	if got := queryString(t, root, "SELECT CURRENT_USER()"); got != "root@%" {
		t.Errorf("seeded root's CURRENT_USER() = %s, want root@%%", got)
	}

	_, err = ts.login(t, "app", "other") // the 10.% account's password does not match 127.0.0.1
	wantDenied(t, err, "Access denied for user 'app'@'127.0.0.1' (using password: YES)")
	_, err = ts.login(t, "app", "")
	wantDenied(t, err, "Access denied for user 'app'@'127.0.0.1' (using password: NO)")

	mustExec(t, root, "ALTER USER app@'127.0.0.1' IDENTIFIED BY 'apw2'")
	_, err = ts.login(t, "app", "apw")
	wantDenied(t, err, "Access denied for user 'app'@'127.0.0.1' (using password: YES)")
	if _, err := ts.login(t, "app", "apw2"); err != nil {
		t.Errorf("login after ALTER USER: %v", err)
	}
	mustExec(t, root, "SET PASSWORD FOR app@'127.0.0.1' = PASSWORD('apw3')")
	if _, err := ts.login(t, "app", "apw3"); err != nil {
		t.Errorf("login after SET PASSWORD: %v", err)
	}
	mustExec(t, root, "DROP USER app@'127.0.0.1'")
	_, err = ts.login(t, "app", "apw3")
	wantDenied(t, err, "Access denied for user 'app'@'127.0.0.1' (using password: YES)")
	// The other account of the name now matches (10.% does not match 127.0.0.1).
	mustExec(t, root, "CREATE USER app@'%' IDENTIFIED BY 'anywhere'")
	if _, err := ts.login(t, "app", "anywhere"); err != nil {
		t.Errorf("login as app@%%: %v", err)
	}
}

func wantDenied(t *testing.T, err error, msg string) {
	t.Helper()
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1045 || string(me.SQLState[:]) != "28000" || me.Message != msg {
		t.Errorf("got %v, want 1045 (28000) %q", err, msg)
	}
}

// A caching_sha2_password account made by CREATE USER logs in on a
// server whose default plugin is the other one: the login is switched to
// the account's plugin, authenticates fully (RSA here: the test server
// has a key) against the stored sha256-crypt, then by fast auth.
func TestCachingSHA2Account(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	root := ts.open(t)
	mustExec(t, root, "CREATE USER sha IDENTIFIED WITH caching_sha2_password BY 'shapw'")
	db, err := ts.login(t, "sha", "shapw")
	if err != nil {
		t.Fatalf("caching_sha2_password account: %v", err)
	}
	if _, err := ts.login(t, "sha", "shapw"); err != nil {
		t.Fatalf("caching_sha2_password account's second (fast) login: %v", err)
	}
	if got := queryString(t, db, "SELECT CURRENT_USER()"); got != "sha@%" {
		t.Errorf("CURRENT_USER() = %s", got)
	}
	_, err = ts.login(t, "sha", "nope")
	wantDenied(t, err, "Access denied for user 'sha'@'127.0.0.1' (using password: YES)")
	// The stored secret is MySQL's $A$005$ sha256-crypt, never the password.
	got := queryString(t, root, "SHOW CREATE USER sha")
	if !strings.HasPrefix(got, "CREATE USER `sha`@`%` IDENTIFIED VIA caching_sha2_password USING '$A$005$") || strings.Contains(got, "shapw") {
		t.Errorf("SHOW CREATE USER sha = %s", got)
	}
}

// The seed flags create the first accounts only: at a restart with the
// same (default) flags an ALTER USER's password stays.
func TestSeedOnlyIntoEmptyCatalog(t *testing.T) {
	dir := t.TempDir()
	start := func(users Users) *testServer {
		e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		srv, err := New(Config{Engine: e, Users: users, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ts := &testServer{srv: srv, engine: e, addr: ln.Addr().String(), served: make(chan error, 1)}
		go func() { ts.served <- srv.Serve(ln) }()
		return ts
	}
	ts := start(Users{"root": "root"})
	db, err := ts.login(t, "root", "root")
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "ALTER USER root IDENTIFIED BY 'changed'")
	db.Close()
	ts.stop(t)

	ts = start(Users{"root": "root", "other": "x"})
	defer ts.stop(t)
	_, err = ts.login(t, "root", "root")
	wantDenied(t, err, "Access denied for user 'root'@'127.0.0.1' (using password: YES)")
	if _, err := ts.login(t, "root", "changed"); err != nil {
		t.Errorf("the password ALTER USER set, after a restart: %v", err)
	}
	_, err = ts.login(t, "other", "x")
	wantDenied(t, err, "Access denied for user 'other'@'127.0.0.1' (using password: YES)")
}

// No password is ever stored in clear: not in the log, not in a
// snapshot, not in any file of the data folder.
func TestNoPasswordInDataFolder(t *testing.T) {
	dir := t.TempDir()
	e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Engine: e, Users: Users{"root": "Seed-Secret-1"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	_ = srv
	s := e.NewSession()
	ctx := context.Background()
	secrets := []string{"Seed-Secret-1", "Create-Secret-2", "Alter-Secret-3", "SetPw-Secret-4", "Grant-Secret-5", "Sha2-Secret-6"}
	for _, q := range []string{
		"CREATE USER u1 IDENTIFIED BY 'Create-Secret-2'",
		"ALTER USER u1 IDENTIFIED BY 'Alter-Secret-3'",
		"SET PASSWORD FOR u1 = PASSWORD('SetPw-Secret-4')",
		"GRANT SELECT ON *.* TO u1 IDENTIFIED BY 'Grant-Secret-5'",
		"CREATE USER u2 IDENTIFIED WITH caching_sha2_password BY 'Sha2-Secret-6'",
		"CHECKPOINT",
		"CREATE USER u3 IDENTIFIED BY 'Create-Secret-2'",
	} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	files, hashSeen := 0, false
	stored := []byte(acl.NativeHash("Grant-Secret-5")) // u1's last password, as the catalog keeps it
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		hashSeen = hashSeen || bytes.Contains(b, stored)
		for _, pw := range secrets {
			if bytes.Contains(b, []byte(pw)) {
				t.Errorf("%s holds the password %q in clear", path, pw)
			}
		}
		return nil
	})
	if err != nil || files < 2 || !hashSeen {
		t.Fatalf("walked %d files (u1's stored hash seen: %v): %v", files, hashSeen, err)
	}
}

// REQUIRE SSL: the account logs in over TLS only; over plain TCP the
// right password is 1045, as MySQL. ALTER USER ... REQUIRE NONE lifts it.
func TestRequireSSLAccount(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServer(t, Config{TLS: cfg}, map[string]string{"have_ssl": "YES"})
	root := ts.open(t)
	mustExec(t, root, "CREATE USER tlsonly IDENTIFIED BY 'tpw' REQUIRE SSL")
	mustExec(t, root, "GRANT SELECT ON test.* TO tlsonly") // the DSNs' database
	_, err := ts.login(t, "tlsonly", "tpw")
	wantDenied(t, err, "Access denied for user 'tlsonly'@'127.0.0.1' (using password: YES)")
	db, err := gosql.Open("mysql", ts.tlsDSN(t, "plrun-require", ca, "tlsonly", "tpw"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := queryString(t, db, "SELECT CURRENT_USER()"); got != "tlsonly@%" {
		t.Errorf("over TLS: CURRENT_USER() = %s", got)
	}
	mustExec(t, root, "ALTER USER tlsonly REQUIRE NONE")
	if _, err := ts.login(t, "tlsonly", "tpw"); err != nil {
		t.Errorf("after REQUIRE NONE, plain login: %v", err)
	}
}

// FLUSH PRIVILEGES empties caching_sha2_password's fast-auth cache, as
// MySQL's: the next login must authenticate fully again, which over
// plain TCP (this server has no RSA key) it cannot.
func TestFlushPrivilegesForgetsFastAuth(t *testing.T) {
	cfg, ca := testTLS(t)
	ts := startServerAs(t, Config{TLS: cfg}, map[string]string{"have_ssl": "YES"})
	root := ts.open(t)
	mustExec(t, root, "CREATE USER sha IDENTIFIED WITH caching_sha2_password BY 'shapw'")
	mustExec(t, root, "GRANT SELECT ON test.* TO sha") // the DSNs' database
	overTLS := func() error {
		db, err := gosql.Open("mysql", ts.tlsDSN(t, "plrun-flush", ca, "sha", "shapw"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		return db.Ping()
	}
	// go-sql-driver gives up by itself when asked for full authentication
	// over plain TCP without a server key.
	if _, err := ts.login(t, "sha", "shapw"); err == nil {
		t.Fatal("plain login before any full authentication succeeded")
	}
	if err := overTLS(); err != nil { // full authentication: fills the cache
		t.Fatal(err)
	}
	if _, err := ts.login(t, "sha", "shapw"); err != nil {
		t.Fatalf("fast auth from the cache over plain TCP: %v", err)
	}
	mustExec(t, root, "FLUSH PRIVILEGES")
	if _, err := ts.login(t, "sha", "shapw"); err == nil {
		t.Fatal("fast auth still succeeds after FLUSH PRIVILEGES")
	}
	if err := overTLS(); err != nil {
		t.Fatalf("full authentication after FLUSH PRIVILEGES: %v", err)
	}
}
