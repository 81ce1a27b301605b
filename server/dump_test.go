package server

import (
	gosql "database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dumpSchema is the database the mysqldump round trip dumps: every column
// type plrun has, NULLs, quotes, backslashes and control characters in
// strings, DECIMAL, dates, AUTO_INCREMENT past its rows, secondary keys, an
// empty table, a FOREIGN KEY and a CHECK, and SQL procedures and functions.
var dumpSchema = []string{
	"CREATE TABLE nums (id INT NOT NULL AUTO_INCREMENT, ti TINYINT, si SMALLINT UNSIGNED, mi MEDIUMINT, " +
		"bi BIGINT, ub BIGINT UNSIGNED, d DECIMAL(20,6), d0 DECIMAL(5,0), f FLOAT, db DOUBLE NOT NULL DEFAULT 1.5, " +
		"PRIMARY KEY (id), UNIQUE KEY u_bi (bi), KEY k_mi (mi, ti))",
	"INSERT INTO nums (ti, si, mi, bi, ub, d, d0, f, db) VALUES " +
		"(-128, 65535, -8388608, -9223372036854775808, 18446744073709551615, -12345678901234.123456, 99999, 1.5, -0.0025), " +
		"(127, 0, 8388607, 9223372036854775807, 0, 0.000001, -99999, -0.125, 1e300), " +
		"(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0)",
	"INSERT INTO nums (id, ti) VALUES (10, 1)",
	"DELETE FROM nums WHERE id = 10", // AUTO_INCREMENT stays past the rows
	"CREATE TABLE texts (code CHAR(4) NOT NULL, name VARCHAR(100) DEFAULT 'it''s', body TEXT, " +
		"PRIMARY KEY (code), KEY k_name (name))",
	`INSERT INTO texts VALUES ('a', 'quote '' and "double"', 'back\\slash \\\\ two'), ` +
		`('b', 'tab\there\nnewline\r\nCRLF', 'zero\0byte and ctrl-z \Z'), ` +
		`('c', 'utf8: żółć, 日本語, emoji 🎉', NULL), ('d', NULL, ''), ('e', DEFAULT, 'semi; colon -- not a comment /* no */')`,
	"CREATE TABLE times (id BIGINT PRIMARY KEY, dt DATETIME, dt6 DATETIME(6), ts TIMESTAMP NULL DEFAULT NULL, dd DATE NOT NULL)",
	"INSERT INTO times VALUES (1, '2024-02-29 23:59:59', '1000-01-01 00:00:00.000001', '2038-01-19 03:14:07', '9999-12-31'), " +
		"(2, NULL, NULL, NULL, '1970-01-01')",
	"CREATE TABLE empty_one (id INT PRIMARY KEY, v VARCHAR(10))",
	// Byte strings with every awkward byte (mysqldump writes them escaped,
	// or as 0x... with --hex-blob), the TEXT sizes, ENUM and SET.
	"CREATE TABLE bytes (id INT PRIMARY KEY, bn BINARY(3) NOT NULL DEFAULT 'a', vb VARBINARY(10), bl BLOB, tb TINYBLOB, " +
		"lb LONGBLOB, tt TINYTEXT, mt MEDIUMTEXT, e ENUM('one','Two','it''s') NOT NULL DEFAULT 'Two', s SET('x','y','z'), " +
		"bt BIT(10) DEFAULT b'101', UNIQUE KEY u_vb (vb))",
	"INSERT INTO bytes VALUES (1, 0x00ff, 0x000102ff, x'c328005c27220d0a1a', 0x80, unhex('DEADBEEF'), 'tiny', 'medium', 'it''s', 'z,x', b'1111111111'), " +
		"(2, 'AB', 'ab', 'Ab', '', '', '', '', 1, '', 0), (3, 'a', 'A', NULL, NULL, NULL, NULL, NULL, 'two', NULL, NULL)",
	"INSERT INTO bytes (id) VALUES (4)",
	// A child that sorts (and so loads) before its parent: the dump's
	// FOREIGN_KEY_CHECKS=0 lets it; and a CHECK constraint.
	"CREATE TABLE a_child (id INT PRIMARY KEY, parent_code CHAR(4), " +
		"CONSTRAINT fk_texts FOREIGN KEY (parent_code) REFERENCES texts (code) ON DELETE CASCADE)",
	"INSERT INTO a_child VALUES (1, 'a'), (2, 'c'), (3, NULL)",
	"CREATE TABLE checked (id INT PRIMARY KEY, n INT, CONSTRAINT n_positive CHECK (n > 0))",
	"INSERT INTO checked VALUES (1, 5), (2, NULL)",
	// mysqldump writes triggers and views split over executable comments
	// (/*!50003 CREATE*/ /*!50017 DEFINER=...*/ /*!50003 TRIGGER ...*/).
	"CREATE TABLE audit (n INT)",
	"CREATE TRIGGER checked_ai AFTER INSERT ON checked FOR EACH ROW INSERT INTO audit VALUES (NEW.n)",
	"CREATE VIEW positive AS SELECT id, n FROM checked WHERE n > 0",
	"CREATE PROCEDURE add_nums(IN n INT, OUT total DECIMAL(30,6)) BEGIN DECLARE i INT DEFAULT 0; " +
		"SET total = 0; WHILE i < n DO SET total = total + i; SET i = i + 1; END WHILE; " +
		"SELECT name FROM texts WHERE code = 'a'; END",
	"CREATE FUNCTION greet(who VARCHAR(20)) RETURNS VARCHAR(40) DETERMINISTIC RETURN CONCAT('hi ''', who, '''')",
}

var dumpTables = []string{"nums", "texts", "times", "empty_one", "bytes", "a_child", "checked", "audit"}

// TestMysqldumpRoundTrip dumps a plrun database with mysqldump (default
// options and --single-transaction, with and without --routines, and
// --lock-all-tables --flush-logs --flush-privileges), loads
// each dump through the mysql client into a fresh plrun database and,
// when mariadbd is installed, into a private MariaDB, and compares every
// table's rows and SHOW CREATE TABLE (and the routines' results).
func TestMysqldumpRoundTrip(t *testing.T) {
	dump := lookTool(t, "mariadb-dump", "mysqldump")
	client := lookTool(t, "mariadb", "mysql")
	ts := startServer(t, Config{}, nil)
	host, port := hostPort(t, ts.addr)
	plrun := func(db string, args ...string) *exec.Cmd {
		base := []string{"--protocol=TCP", "-h", host, "-P", port, "-uroot", "-proot", "--ssl=0", "--default-character-set=utf8mb4", "-N", "-B"}
		if db != "" {
			base = append(base, db)
		}
		return exec.Command(client, append(base, args...)...)
	}
	mustExec(t, ts.open(t), "CREATE DATABASE src")
	src, err := gosql.Open("mysql", ts.dsn("root", "root", "src"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, q := range dumpSchema {
		mustExec(t, src, q)
	}
	requireDumpPrerequisites(t, src)
	maria := startMariaDB(t, client)
	dir := t.TempDir()
	// --lock-all-tables is FLUSH TABLES WITH READ LOCK; --flush-logs and
	// --flush-privileges send COM_REFRESH and FLUSH PRIVILEGES.
	variants := [][]string{nil, {"--single-transaction"}, {"--routines"}, {"--single-transaction", "--routines"},
		{"--lock-all-tables", "--flush-logs", "--flush-privileges"}, {"--hex-blob"}}
	for i, opts := range variants {
		name := fmt.Sprintf("dst%d", i)
		file := filepath.Join(dir, name+".sql")
		args := append([]string{"--protocol=TCP", "-h", host, "-P", port, "-uroot", "-proot", "--ssl=0", "-r", file}, opts...)
		runClient(t, 60*time.Second, exec.Command(dump, append(args, "src")...))
		loadDump(t, plrun("", "-e", "CREATE DATABASE "+name), "")
		loadDump(t, plrun(name), file)
		targets := map[string]func(args ...string) *exec.Cmd{"plrun": func(a ...string) *exec.Cmd { return plrun(name, a...) }}
		if maria != nil {
			loadDump(t, maria("", "-e", "CREATE DATABASE "+name), "")
			loadDump(t, maria(name), file)
			targets["MariaDB"] = func(a ...string) *exec.Cmd { return maria(name, a...) }
		}
		for _, tbl := range dumpTables {
			want := runClient(t, 30*time.Second, plrun("src", "-e", "SELECT * FROM "+tbl+" ORDER BY 1"))
			wantCreate := runClient(t, 30*time.Second, plrun("src", "-e", "SHOW CREATE TABLE "+tbl))
			for who, target := range targets {
				if got := runClient(t, 30*time.Second, target("-e", "SELECT * FROM "+tbl+" ORDER BY 1")); got != want {
					t.Errorf("%v into %s: %s rows:\n%s\nwant:\n%s", opts, who, tbl, got, want)
				}
				if got := runClient(t, 30*time.Second, target("-e", "SHOW CREATE TABLE "+tbl)); got != wantCreate {
					t.Errorf("%v into %s: SHOW CREATE TABLE %s:\n%s\nwant:\n%s", opts, who, tbl, got, wantCreate)
				}
			}
		}
		// The trigger and the view came back: an insert fires the trigger,
		// the view reads the table.
		const fired = "7\n1\t5\n10\t7\n"
		for who, target := range targets {
			if got := runClient(t, 30*time.Second, target("-e", "INSERT INTO checked VALUES (10, 7); SELECT * FROM audit; SELECT * FROM positive ORDER BY id")); got != fired {
				t.Errorf("%v into %s: trigger and view gave:\n%s\nwant:\n%s", opts, who, got, fired)
			}
		}
		routines := "CALL add_nums(5, @t); SELECT @t, greet('x')"
		want := runClient(t, 30*time.Second, plrun("src", "-e", routines))
		for who, target := range targets {
			out, err := target("-e", routines).CombinedOutput()
			switch dumped := len(opts) > 0 && opts[len(opts)-1] == "--routines"; {
			case dumped && (err != nil || string(out) != want):
				t.Errorf("%v into %s: routines printed %q (%v), want %q", opts, who, out, err, want)
			case !dumped && err == nil:
				t.Errorf("%v into %s: routines exist though not dumped: %q", opts, who, out)
			}
		}
	}
}

// requireDumpPrerequisites skips, saying so, while this tree lacks what
// mysqldump reads and its file runs beyond this package's part of issue
// 12: information_schema (sql/infoschema) and ALTER TABLE ... DISABLE KEYS
// (sql/ddl's ALTER). Once both are in, the round trip runs in full.
func requireDumpPrerequisites(t *testing.T, db *gosql.DB) {
	t.Helper()
	for _, probe := range []string{
		"SELECT engine, table_type FROM INFORMATION_SCHEMA.TABLES WHERE table_schema = DATABASE() AND table_name = 'nums'",
		"ALTER TABLE empty_one DISABLE KEYS",
	} {
		if _, err := db.Exec(probe); err != nil {
			if strings.Contains(err.Error(), "1146") || strings.Contains(err.Error(), "1235") {
				t.Skipf("this tree cannot run what mysqldump needs yet (%q: %v)", probe, err)
			}
			t.Fatalf("%s: %v", probe, err)
		}
	}
}

// lookTool finds the first of names on PATH, or skips the test.
func lookTool(t *testing.T, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	t.Skipf("none of %v installed (CI installs mariadb-client)", names)
	return ""
}

// loadDump runs cmd with file (if any) as its input, as `mysql db < file`.
func loadDump(t *testing.T, cmd *exec.Cmd, file string) {
	t.Helper()
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	runClient(t, 60*time.Second, cmd)
}

// startMariaDB starts a private mariadbd on a free port in a temporary
// folder and returns how to run the client against it; nil when MariaDB's
// server is not installed. The server is stopped when the test ends.
func startMariaDB(t *testing.T, client string) func(db string, args ...string) *exec.Cmd {
	t.Helper()
	server, err1 := exec.LookPath("mariadbd")
	install, err2 := exec.LookPath("mariadb-install-db")
	if err1 != nil || err2 != nil {
		t.Log("no mariadbd: the dumps are loaded into plrun only")
		return nil
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if out, err := exec.Command(install, "--user=root", "--datadir="+data, "--auth-root-authentication-method=normal").CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	log, err := os.Create(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	srv := exec.Command(server, "--no-defaults", "--user=root", "--datadir="+data, "--port="+port,
		"--socket="+filepath.Join(dir, "sock"), "--bind-address=127.0.0.1", "--skip-grant-tables", "--skip-log-bin")
	srv.Stdout, srv.Stderr = log, log
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Process.Kill()
		_ = srv.Wait()
		log.Close()
	})
	run := func(db string, args ...string) *exec.Cmd {
		base := []string{"--no-defaults", "--protocol=TCP", "-h127.0.0.1", "-P" + port, "-uroot", "--ssl=0", "--default-character-set=utf8mb4", "-N", "-B"}
		if db != "" {
			base = append(base, db)
		}
		return exec.Command(client, append(base, args...)...)
	}
	for i := 0; ; i++ {
		if err := run("", "-e", "SELECT 1").Run(); err == nil {
			return run
		}
		if i == 300 {
			out, _ := os.ReadFile(filepath.Join(dir, "log"))
			t.Fatalf("mariadbd did not start:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
