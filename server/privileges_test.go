package server

import (
	"bytes"
	gosql "database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"
	gomysql "github.com/go-sql-driver/mysql"
)

// limitedServer is a server whose root account made database play (all
// granted to 'lim'@'%', password 'lp') and vault.secret (nothing granted).
func limitedServer(t *testing.T) (*testServer, *gosql.DB) {
	ts := startServer(t, Config{}, nil)
	root := ts.open(t)
	for _, q := range []string{"CREATE DATABASE vault", "CREATE DATABASE play",
		"CREATE TABLE vault.secret (id int PRIMARY KEY, s varchar(40))",
		"INSERT INTO vault.secret VALUES (1, '" + limitedSecret + "')",
		"CREATE TABLE play.t (id int PRIMARY KEY, s varchar(40))",
		"CREATE USER lim@'%' IDENTIFIED BY 'lp'", "GRANT ALL ON play.* TO lim@'%'"} {
		mustExec(t, root, q)
	}
	return ts, root
}

func mysqlCode(err error) uint16 {
	var me *gomysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// TestPrivilegesThroughServer: a limited account's statements are checked
// with MariaDB's errors, a GRANT and a REVOKE show at its next statement
// (a prepared statement's next EXECUTE too), and code runs with its
// DEFINER's rights.
func TestPrivilegesThroughServer(t *testing.T) {
	ts, root := limitedServer(t)
	lim, err := ts.login(t, "lim", "lp")
	if err != nil {
		t.Fatal(err)
	}
	_, err = lim.Exec("SELECT * FROM vault.secret")
	if mysqlCode(err) != 1142 || !strings.Contains(err.Error(), "SELECT command denied to user 'lim'@'127.0.0.1' for table `vault`.`secret`") {
		t.Fatalf("SELECT of vault.secret: %v", err)
	}
	if _, err := lim.Exec("USE vault"); mysqlCode(err) != 1044 || !strings.Contains(err.Error(), "Access denied for user 'lim'@'%' to database 'vault'") {
		t.Fatalf("USE vault: %v", err)
	}
	if _, err := ts.login(t, "lim", "lp"); err != nil {
		t.Fatal(err)
	}
	stmt, err := lim.Prepare("SELECT count(*) FROM vault.secret WHERE id > ?")
	if mysqlCode(err) != 1142 {
		t.Fatalf("PREPARE of a statement it may not run: %v", err)
	}
	mustExec(t, root, "GRANT SELECT ON vault.secret TO lim@'%'")
	if stmt, err = lim.Prepare("SELECT count(*) FROM vault.secret WHERE id > ?"); err != nil {
		t.Fatalf("PREPARE after GRANT: %v", err)
	}
	var n int
	if err := stmt.QueryRow(0).Scan(&n); err != nil || n != 1 {
		t.Fatalf("EXECUTE after GRANT: %d, %v", n, err)
	}
	mustExec(t, root, "REVOKE SELECT ON vault.secret FROM lim@'%'")
	if err := stmt.QueryRow(0).Scan(&n); mysqlCode(err) != 1142 {
		t.Fatalf("EXECUTE after REVOKE: %v", err)
	}
	stmt.Close()

	// DEFINER rights: root's procedure reads the secret for lim, who may
	// only EXECUTE it; CURRENT_USER() inside is the definer.
	mustExec(t, root, "CREATE USER reader@'%'")
	mustExec(t, root, "GRANT SELECT ON vault.* TO reader@'%'")
	mustExec(t, root, "GRANT EXECUTE ON vault.* TO reader@'%'")
	mustExec(t, root, "USE vault")
	mustExec(t, root, "CREATE DEFINER = reader@'%' PROCEDURE count_secrets(OUT n INT) SELECT count(*) INTO n FROM vault.secret")
	mustExec(t, root, "CREATE DEFINER = reader@'%' PROCEDURE who() SELECT CURRENT_USER()")
	mustExec(t, root, "CREATE DEFINER = reader@'%' PROCEDURE who_invoker() SQL SECURITY INVOKER SELECT CURRENT_USER()")
	if _, err := lim.Exec("CALL vault.count_secrets(@n)"); mysqlCode(err) != 1370 {
		t.Fatalf("CALL without EXECUTE: %v", err)
	}
	mustExec(t, root, "GRANT EXECUTE ON vault.* TO lim@'%'")
	conn, err := lim.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "CALL vault.count_secrets(@n)"); err != nil {
		t.Fatalf("CALL of a DEFINER procedure: %v", err)
	}
	if err := conn.QueryRowContext(t.Context(), "SELECT @n").Scan(&n); err != nil || n != 1 {
		t.Fatalf("the definer's count: %d, %v", n, err)
	}
	var who string
	if err := conn.QueryRowContext(t.Context(), "CALL vault.who()").Scan(&who); err != nil || who != "reader@%" {
		t.Fatalf("CURRENT_USER() in a DEFINER procedure: %q, %v", who, err)
	}
	if err := conn.QueryRowContext(t.Context(), "CALL vault.who_invoker()").Scan(&who); err != nil || who != "lim@%" {
		t.Fatalf("CURRENT_USER() in an INVOKER procedure: %q, %v", who, err)
	}
	// ... and the secret itself stays out of reach
	if _, err := conn.ExecContext(t.Context(), "SELECT * FROM vault.secret"); mysqlCode(err) != 1142 {
		t.Fatalf("SELECT after the CALLs: %v", err)
	}
}

// TestStringParamLengthPastPacketLimited is TestStringParamLengthPastPacket
// from the limited account: the malformed executes are 1835, and the
// account's grants hold after them.
func TestStringParamLengthPastPacketLimited(t *testing.T) {
	ts, _ := limitedServer(t)
	rc := dialRaw(t, ts.addr)
	if ok := rc.login("lim", "lp", "play"); ok[0] != mysql.OK_HEADER {
		t.Fatalf("login: %q", ok)
	}
	prep := rc.command(append([]byte{mysql.COM_STMT_PREPARE}, "SELECT ?"...))
	if prep[0][0] != mysql.OK_HEADER {
		t.Fatalf("prepare: %q", prep[0])
	}
	for _, execute := range [][]byte{hugeStringExecute(1), pastEndStringExecute(1)} {
		if code := errCode(rc.command(execute)[0]); code != mysql.ER_MALFORMED_PACKET {
			t.Fatalf("execute with a lying string length answered %d, want 1835", code)
		}
	}
	rs := rc.command(append([]byte{mysql.COM_QUERY}, "SELECT s FROM vault.secret"...))
	if code := errCode(rs[0]); code != 1142 || bytes.Contains(bytes.Join(rs, nil), []byte(limitedSecret)) {
		t.Fatalf("SELECT of the secret after the malformed executes: %q", rs)
	}
}
