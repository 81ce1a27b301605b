package server

import (
	"context"
	gosql "database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
	gomysql "github.com/go-sql-driver/mysql"
)

// Issue 10: what stock clients and tools rely on at the protocol level.

// TestHandshakeStatus: the handshake announces the session's autocommit
// as MySQL does (pymysql's default connect() then sends SET autocommit=0,
// so rollback() rolls back); --compat oceanbase announces none.
func TestHandshakeStatus(t *testing.T) {
	for _, tc := range []struct {
		compat string
		want   uint16
	}{{CompatMySQL, mysql.SERVER_STATUS_AUTOCOMMIT}, {CompatOceanBase, 0}} {
		ts := startServer(t, Config{Compat: tc.compat}, nil)
		rc := dialRaw(t, ts.addr)
		if got := handshakeStatus(rc.handshake); got != tc.want {
			t.Errorf("compat %q: handshake status %#x, want %#x", tc.compat, got, tc.want)
		}
	}
	if _, err := New(Config{Engine: startServer(t, Config{}, nil).engine, Users: Users{"root": ""}, Compat: "mysql5"}); err == nil {
		t.Error("an unknown compatibility mode was accepted")
	}
}

// TestConnectionIDIsSessionID: the handshake's connection id is what
// CONNECTION_ID(), SHOW PROCESSLIST and KILL use.
func TestConnectionIDIsSessionID(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	for range 3 {
		rc := dialRaw(t, ts.addr)
		rc.login("root", "root", "test")
		if got := firstValue(t, rc.query("SELECT CONNECTION_ID()")); got != strconv.Itoa(int(rc.id)) {
			t.Fatalf("CONNECTION_ID() = %s, handshake said %d", got, rc.id)
		}
	}
}

// TestHandshakeWithoutDatabase: an empty database name (Node's mysql2
// sends one) is no default database, not 1049 Unknown database ”.
func TestHandshakeWithoutDatabase(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	rc := dialRaw(t, ts.addr)
	if ok := rc.login("root", "root", ""); ok[0] != mysql.OK_HEADER {
		t.Fatalf("login without a database: %q", ok)
	}
	if got := firstValue(t, rc.query("SELECT DATABASE()")); got != "NULL" {
		t.Fatalf("DATABASE() = %s, want NULL", got)
	}
	if code := errCode(rc.query("SELECT * FROM t")[0]); code != 1046 {
		t.Fatalf("a table without a database: error %d, want 1046", code)
	}
}

// TestPrepareDescribesColumns: COM_STMT_PREPARE of a SELECT sends its
// column definitions (libmysqlclient, and so sysbench and PHP, read the
// executions' result sets only then).
func TestPrepareDescribesColumns(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	mustExec(t, ts.open(t), "CREATE TABLE pc (id INT PRIMARY KEY, k INT, c CHAR(10))")
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	reply := rc.command(append([]byte{mysql.COM_STMT_PREPARE}, "SELECT c, k + 1 AS k1 FROM pc WHERE id BETWEEN ? AND ?"...))
	if errCode(reply[0]) != 0 {
		t.Fatalf("prepare: %q", reply[0])
	}
	// OK, 2 parameter definitions + EOF, 2 column definitions + EOF.
	if len(reply) != 1+3+3 {
		t.Fatalf("prepare reply has %d packets, want 7", len(reply))
	}
	var names []string
	for _, def := range reply[4:6] {
		f := &mysql.Field{}
		if err := f.Parse(def); err != nil {
			t.Fatal(err)
		}
		names = append(names, string(f.Name))
	}
	if strings.Join(names, ",") != "c,k1" {
		t.Fatalf("described columns %v, want [c k1]", names)
	}
	show := rc.command(append([]byte{mysql.COM_STMT_PREPARE}, "SHOW VARIABLES LIKE 'autocommit'"...))
	if errCode(show[0]) != 0 || binary.LittleEndian.Uint16(show[0][5:]) != 2 {
		t.Fatalf("prepare of SHOW VARIABLES: %q, want 2 columns", show[0])
	}
	if code := errCode(rc.command(append([]byte{mysql.COM_STMT_PREPARE}, "SELECT x FROM nosuch WHERE id = ?"...))[0]); code != 1146 {
		t.Fatalf("prepare of a missing table: error %d, want 1146", code)
	}
}

// TestStatisticsSetOptionTrailingNUL: COM_STATISTICS (mysqladmin status),
// COM_SET_OPTION turning multi-statements off and on (mysqli), and a
// query ending in a NUL byte (mysqlslap).
func TestStatisticsSetOptionTrailingNUL(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test", mysql.CLIENT_MULTI_STATEMENTS)
	rc.query("SELECT 1")
	rc.command([]byte{mysql.COM_PING})
	stats := string(rc.command([]byte{mysql.COM_STATISTICS})[0])
	if !regexp.MustCompile(`^Uptime: \d+  Threads: 1  Questions: 1  Slow queries: 0  Opens: 0  Open tables: 0  Queries per second avg: \d+\.\d{3}$`).MatchString(stats) {
		t.Fatalf("COM_STATISTICS: %q", stats)
	}
	if got := firstValue(t, rc.query("SELECT 1; SELECT 2")); got != "1" {
		t.Fatalf("multi-statement: %s", got)
	}
	if r := rc.command([]byte{mysql.COM_SET_OPTION, 1, 0}); r[0][0] != mysql.EOF_HEADER {
		t.Fatalf("COM_SET_OPTION off: %q", r[0])
	}
	if code := errCode(rc.query("SELECT 1; SELECT 2")[0]); code != 1064 {
		t.Fatalf("multi-statement with the option off: error %d, want 1064", code)
	}
	if r := rc.command([]byte{mysql.COM_SET_OPTION, 0, 0}); r[0][0] != mysql.EOF_HEADER {
		t.Fatalf("COM_SET_OPTION on: %q", r[0])
	}
	if got := firstValue(t, rc.query("SELECT 3; SELECT 4")); got != "3" {
		t.Fatalf("multi-statement after turning it back on: %s", got)
	}
	if code := errCode(rc.command([]byte{mysql.COM_SET_OPTION, 9, 0})[0]); code != mysql.ER_UNKNOWN_COM_ERROR {
		t.Fatalf("unknown option: error %d, want 1047", code)
	}
	if got := firstValue(t, rc.query("SELECT 7\x00")); got != "7" {
		t.Fatalf("a query with a trailing NUL: %s", got)
	}
}

// changeUserPacket is COM_CHANGE_USER scrambling password with salt.
func changeUserPacket(user, password, db string, salt []byte) []byte {
	b := append([]byte{mysql.COM_CHANGE_USER}, user...)
	auth := mysql.CalcPassword(salt, []byte(password))
	b = append(append(append(b, 0), byte(len(auth))), auth...)
	b = append(append(b, db...), 0)
	b = append(b, charsetUTF8MB4, 0)
	return append(append(b, mysql.AUTH_NATIVE_PASSWORD...), 0)
}

// TestChangeUserAndResetConnection: both reset the session in place (same
// connection id; user variables gone; the open transaction rolled back,
// its locks freed); a refused COM_CHANGE_USER closes the connection.
func TestChangeUserAndResetConnection(t *testing.T) {
	ts := startServer(t, Config{Users: Users{"root": "root", "app": "secret"}}, map[string]string{"innodb_lock_wait_timeout": "1"})
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE cu (id INT PRIMARY KEY, k INT)")
	mustExec(t, db, "INSERT INTO cu VALUES (1, 0)")
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	for _, reset := range []struct {
		name string
		cmd  []byte
	}{
		{"COM_CHANGE_USER", changeUserPacket("app", "secret", "test", rc.salt)},
		{"COM_RESET_CONNECTION", []byte{mysql.COM_RESET_CONNECTION}},
	} {
		for _, q := range []string{"SET @x = 1", "BEGIN", "UPDATE cu SET k = k + 1 WHERE id = 1"} {
			if code := errCode(rc.query(q)[0]); code != 0 {
				t.Fatalf("%s: error %d", q, code)
			}
		}
		if r := rc.command(reset.cmd); r[0][0] != mysql.OK_HEADER {
			t.Fatalf("%s: %q", reset.name, r[0])
		}
		if got := firstValue(t, rc.query("SELECT @x")); got != "NULL" {
			t.Errorf("%s: @x = %s, want NULL", reset.name, got)
		}
		if got := firstValue(t, rc.query("SELECT CONNECTION_ID()")); got != strconv.Itoa(int(rc.id)) {
			t.Errorf("%s: connection id %s, want %d", reset.name, got, rc.id)
		}
		mustExec(t, db, "UPDATE cu SET k = 10 WHERE id = 1") // 1205 if the lock were kept
	}
	if got := firstValue(t, rc.query("SELECT USER()")); !strings.HasPrefix(got, "app@") {
		t.Errorf("USER() after COM_CHANGE_USER to app: %s", got)
	}
	rc.pc.resetSequence()
	rc.write(changeUserPacket("app", "wrong", "test", rc.salt))
	if code := errCode(rc.read()); code != mysql.ER_ACCESS_DENIED_ERROR {
		t.Fatalf("COM_CHANGE_USER with a wrong password: error %d, want 1045", code)
	}
	if _, err := rc.pc.readPacket(); !errors.Is(err, io.EOF) {
		t.Fatalf("after a refused COM_CHANGE_USER the connection is open (%v)", err)
	}
}

// TestKillIdleConnectionClosesIt: KILL of a connection waiting for its
// next command closes its socket at once, not when it next sends one.
func TestKillIdleConnectionClosesIt(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	_ = rc.nc.SetReadDeadline(time.Now().Add(20 * time.Second))
	mustExec(t, ts.open(t), fmt.Sprintf("KILL %d", rc.id))
	if _, err := rc.pc.readPacket(); !errors.Is(err, io.EOF) {
		t.Fatalf("the killed idle connection: %v, want the server to close it", err)
	}
}

// TestDisconnectCancelsStatement: a client that goes away while its
// statement waits for a row lock cancels it, as KILL QUERY would: it
// leaves the process list and its update is never applied.
func TestDisconnectCancelsStatement(t *testing.T) {
	ts := startServer(t, Config{}, map[string]string{"innodb_lock_wait_timeout": "1000"})
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE dc (id INT PRIMARY KEY, k INT)")
	mustExec(t, db, "INSERT INTO dc VALUES (1, 0)")
	ctx := context.Background()
	holder := holdLock(t, db, "UPDATE dc SET k = 1 WHERE id = 1")
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	rc.write(append([]byte{mysql.COM_QUERY}, "UPDATE dc SET k = 100 WHERE id = 1 /* client-gone */"...))
	processID(t, db, "client-gone") // it is waiting for the lock
	rc.nc.Close()
	deadline := time.Now().Add(30 * time.Second)
	for hasProcess(t, db, "client-gone") {
		if time.Now().After(deadline) {
			t.Fatal("the disconnected client's statement is still running")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := holder.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	var k int
	if err := db.QueryRow("SELECT k FROM dc WHERE id = 1").Scan(&k); err != nil || k != 1 {
		t.Fatalf("k = %d, %v; want 1 (the cancelled update never applies)", k, err)
	}
}

// hasProcess reports whether SHOW PROCESSLIST has a statement holding marker.
func hasProcess(t *testing.T, db *gosql.DB, marker string) bool {
	t.Helper()
	_, ok := findProcess(t, db, marker)
	return ok
}

// TestLoginErrors: 1045 worded as MySQL's: the host without the client's
// port, "using password: NO" when none was sent; an unknown user under
// caching_sha2_password is 1045 too; user@tenant needs both parts.
func TestLoginErrors(t *testing.T) {
	for _, plugin := range []string{mysql.AUTH_NATIVE_PASSWORD, mysql.AUTH_CACHING_SHA2_PASSWORD} {
		ts := startServer(t, Config{AuthPlugin: plugin}, nil)
		for _, tc := range []struct{ user, password, want string }{
			{"root", "wrong", "Access denied for user 'root'@'127.0.0.1' (using password: YES)"},
			{"root", "", "Access denied for user 'root'@'127.0.0.1' (using password: NO)"},
			{"nobody", "x", "Access denied for user 'nobody'@'127.0.0.1' (using password: YES)"},
			{"root@", "root", "Access denied for user 'root@'@'127.0.0.1' (using password: YES)"},
		} {
			db, err := gosql.Open("mysql", ts.dsn(tc.user, tc.password, "test", "allowNativePasswords=true"))
			if err != nil {
				t.Fatal(err)
			}
			err = db.Ping()
			db.Close()
			var me *gomysql.MySQLError
			if !errors.As(err, &me) || me.Number != 1045 || string(me.SQLState[:]) != "28000" || me.Message != tc.want {
				t.Errorf("%s: %s/%q: got %v, want 1045 (28000) %s", plugin, tc.user, tc.password, err, tc.want)
			}
		}
	}
}

// TestPreparedCallOutParams: a prepared CALL with ? for OUT and INOUT
// arguments answers, as MariaDB does, with a result set of those
// parameters (flagged SERVER_PS_OUT_PARAMS, one binary row) before the
// CALL's OK.
func TestPreparedCallOutParams(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	mustExec(t, ts.open(t), "CREATE PROCEDURE p(IN a INT, OUT b INT, INOUT c INT) LANGUAGE LUA AS $$\nb = a * 2\nc = c + 1\n$$")
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test", mysql.CLIENT_PS_MULTI_RESULTS)
	prep := rc.command(append([]byte{mysql.COM_STMT_PREPARE}, "CALL p(?, ?, ?)"...))
	if errCode(prep[0]) != 0 || binary.LittleEndian.Uint16(prep[0][7:]) != 3 {
		t.Fatalf("prepare: %q", prep[0])
	}
	b := []byte{mysql.COM_STMT_EXECUTE}
	b = binary.LittleEndian.AppendUint32(b, binary.LittleEndian.Uint32(prep[0][1:]))
	b = append(b, 0, 1, 0, 0, 0, 0x02) // flags, iterations, NULL bitmap: b is NULL
	b = append(b, 1, mysql.MYSQL_TYPE_LONGLONG, 0, mysql.MYSQL_TYPE_NULL, 0, mysql.MYSQL_TYPE_LONGLONG, 0)
	b = binary.LittleEndian.AppendUint64(b, 21)
	b = binary.LittleEndian.AppendUint64(b, 5)
	reply := rc.command(b)
	// Column count, b, c, EOF, the row, EOF, then the CALL's OK.
	if len(reply) != 7 || reply[0][0] != 2 || reply[6][0] != mysql.OK_HEADER {
		t.Fatalf("execute of CALL: %q", reply)
	}
	var names []string
	for _, def := range reply[1:3] {
		f := &mysql.Field{}
		if err := f.Parse(def); err != nil {
			t.Fatal(err)
		}
		names = append(names, string(f.Name))
	}
	eof := reply[3]
	if strings.Join(names, ",") != "b,c" || binary.LittleEndian.Uint16(eof[3:])&mysql.SERVER_PS_OUT_PARAMS == 0 {
		t.Fatalf("OUT parameters %v, EOF %q: want b,c flagged SERVER_PS_OUT_PARAMS", names, eof)
	}
	row := reply[4] // 0x00, NULL bitmap, b and c as INT (4 bytes each)
	if len(row) != 2+8 || binary.LittleEndian.Uint32(row[2:]) != 42 || binary.LittleEndian.Uint32(row[6:]) != 6 {
		t.Fatalf("OUT row %q, want b = 42, c = 6", row)
	}
}

// TestServeCompatFlag: --compat takes oceanbase (or nothing); anything
// else is refused before the server starts.
func TestServeCompatFlag(t *testing.T) {
	var stderr strings.Builder
	err := run(context.Background(), []string{"serve", "--listen", "127.0.0.1:0", "--data", t.TempDir(), "--compat", "oracle"}, &stderr, nil)
	if err == nil || !strings.Contains(err.Error(), "oracle") {
		t.Fatalf("--compat oracle: %v, want it refused", err)
	}
}
