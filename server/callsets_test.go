package server

import (
	"context"
	gosql "database/sql"
	"encoding/binary"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// A CALL whose procedure returns result sets answers as MySQL does: each
// set with SERVER_MORE_RESULTS_EXISTS, then the CALL's OK. The expected
// outputs are MariaDB 10.11's for the same procedure written in SQL.

const twoSetsLua = "CREATE PROCEDURE two_sets(IN n INT) LANGUAGE LUA AS $$\n" +
	"session:emit(session:runSql('SELECT ? AS a', {n}))\n" +
	"session:emit(session:runSql(\"SELECT 'x' AS b, ? * 2 AS c\", {n}))\n$$"

func TestPyMySQLCallprocNextset(t *testing.T) {
	needPython(t, "pymysql")
	runScript(t, "['a'] [(21,)]\n['b', 'c'] [('x', 42)]\nok affected 0\n['a'] [(5,)]\n['b', 'c'] [('x', 10)]\nok affected 0\n(('next statement',),)\n",
		nil, debianPython, repoPath(t, "testdata/server/clients/pymysql_callproc.py"))
}

func TestMySQLClientPrintsEachSet(t *testing.T) {
	bin := needTool(t, "mariadb", "mariadb-client")
	ts := startServer(t, Config{}, nil)
	mustExec(t, ts.open(t), twoSetsLua)
	host, port := hostPort(t, ts.addr)
	out := clientOutput(t, 30*time.Second, exec.Command(bin, "--protocol=TCP", "-h", host, "-P", port, "-uroot", "-proot", "--ssl=0", "test",
		"-e", "call two_sets(21); select 1 as z"))
	if want := "a\n21\nb\tc\nx\t42\nz\n1\n"; out != want {
		t.Fatalf("mysql -e printed %q, want (as MariaDB) %q", out, want)
	}
}

// TestGoSQLDriverNextResultSet: rows.NextResultSet walks a CALL's sets, in
// the text protocol (no arguments) and the binary one (a ? argument:
// COM_STMT_EXECUTE), and the connection is usable afterwards.
func TestGoSQLDriverNextResultSet(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t, "multiStatements=true")
	db.SetMaxOpenConns(1)
	mustExec(t, db, twoSetsLua)
	for _, tc := range []struct {
		q    string
		args []any
		want string
	}{
		{"CALL two_sets(21)", nil, "a=21 b,c=x,42"},
		{"CALL two_sets(?)", []any{21}, "a=21 b,c=x,42"},
		// multi-statements: the CALL's sets come between the other
		// statements' (the driver steps over the CALL's OK)
		{"SELECT 0 AS z; CALL two_sets(1); SELECT 9 AS y", nil, "z=0 a=1 b,c=x,2 y=9"},
	} {
		rows, err := db.QueryContext(context.Background(), tc.q, tc.args...)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		var sets []string
		for {
			cols, _ := rows.Columns()
			var got []string
			for rows.Next() {
				vals := make([]gosql.RawBytes, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				for _, v := range vals {
					got = append(got, string(v))
				}
			}
			sets = append(sets, strings.Join(cols, ",")+"="+strings.Join(got, ","))
			if !rows.NextResultSet() {
				break
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		rows.Close()
		if got, want := strings.Join(sets, " "), tc.want; got != want {
			t.Errorf("%s: sets %q, want %q", tc.q, got, want)
		}
		var one int
		if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("after %s: SELECT 1 = %d, %v", tc.q, one, err)
		}
	}
}

// TestPreparedCallSetsThenOutParams: a prepared CALL whose procedure emits
// a set and has an OUT ? argument answers, as MariaDB does, with the
// emitted set, then the OUT-parameter set (SERVER_PS_OUT_PARAMS), then the
// CALL's OK; every set but the last result says SERVER_MORE_RESULTS_EXISTS.
func TestPreparedCallSetsThenOutParams(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	mustExec(t, ts.open(t), "CREATE PROCEDURE p(IN a INT, OUT b INT) LANGUAGE LUA AS $$\nsession:emit({'seen'}, {{a}})\nb = a * 2\n$$")
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test", mysql.CLIENT_PS_MULTI_RESULTS)
	prep := rc.command(append([]byte{mysql.COM_STMT_PREPARE}, "CALL p(?, ?)"...))
	if errCode(prep[0]) != 0 {
		t.Fatalf("prepare: %q", prep[0])
	}
	b := []byte{mysql.COM_STMT_EXECUTE}
	b = binary.LittleEndian.AppendUint32(b, binary.LittleEndian.Uint32(prep[0][1:]))
	b = append(b, 0, 1, 0, 0, 0, 0x02) // flags, iterations, NULL bitmap: b is NULL
	b = append(b, 1, mysql.MYSQL_TYPE_LONGLONG, 0, mysql.MYSQL_TYPE_NULL, 0)
	b = binary.LittleEndian.AppendUint64(b, 21)
	reply := rc.command(b)
	// seen: count, def, EOF, row, EOF; b: count, def, EOF, row, EOF; OK.
	if len(reply) != 11 || reply[0][0] != 1 || reply[5][0] != 1 || reply[10][0] != mysql.OK_HEADER {
		t.Fatalf("execute of CALL: %q", reply)
	}
	status := func(eof []byte) uint16 { return binary.LittleEndian.Uint16(eof[3:]) }
	if s := status(reply[4]); s&mysql.SERVER_MORE_RESULTS_EXISTS == 0 || s&mysql.SERVER_PS_OUT_PARAMS != 0 {
		t.Fatalf("emitted set's EOF status %#x: want MORE_RESULTS and not PS_OUT_PARAMS", s)
	}
	if s := status(reply[9]); s&mysql.SERVER_MORE_RESULTS_EXISTS == 0 || s&mysql.SERVER_PS_OUT_PARAMS == 0 {
		t.Fatalf("OUT set's EOF status %#x: want MORE_RESULTS and PS_OUT_PARAMS", s)
	}
	if row := reply[3]; len(row) != 2+8 || binary.LittleEndian.Uint64(row[2:]) != 21 { // a BIGINT
		t.Fatalf("emitted row %q, want seen = 21", row)
	}
}

// TestCallSetsNeedMultiResults: a client that cannot read more than one
// result (no CLIENT_MULTI_RESULTS) gets MySQL's 1312 from the procedure's
// emit, as MySQL refuses a procedure's SELECT, not the OK alone; a CALL
// without sets still works.
func TestCallSetsNeedMultiResults(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	mustExec(t, db, "CREATE PROCEDURE sets() LANGUAGE LUA AS $$ session:emit({'a'}, {{1}}) $$")
	mustExec(t, db, "CREATE PROCEDURE quiet() LANGUAGE LUA AS $$ local x = 1 $$")
	rc := dialRaw(t, ts.addr)
	rc.loginCaps("root", "root", "test", mysql.CLIENT_PROTOCOL_41|mysql.CLIENT_SECURE_CONNECTION|mysql.CLIENT_PLUGIN_AUTH|mysql.CLIENT_CONNECT_WITH_DB)
	reply := rc.command(append([]byte{mysql.COM_QUERY}, "CALL sets()"...))
	if len(reply) != 1 || errCode(reply[0]) != 1312 || !strings.Contains(string(reply[0]), "0A000") ||
		!strings.Contains(string(reply[0]), "PROCEDURE test.sets can't return a result set in the given context") {
		t.Fatalf("CALL sets() without CLIENT_MULTI_RESULTS: %q, want error 1312", reply)
	}
	if reply := rc.command(append([]byte{mysql.COM_QUERY}, "CALL quiet()"...)); len(reply) != 1 || reply[0][0] != mysql.OK_HEADER {
		t.Fatalf("CALL quiet(): %q, want an OK", reply)
	}
}

// TestFailedCallSendsSetsThenError: a CALL that fails after emitting sends
// its sets (with SERVER_MORE_RESULTS_EXISTS), then the error, as MariaDB
// does for a procedure that SELECTs and then SIGNALs; the next statement
// gets no stale sets.
func TestFailedCallSendsSetsThenError(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	mustExec(t, ts.open(t), "CREATE PROCEDURE fails() LANGUAGE LUA AS $$ session:emit({'a'}, {{1}})\nerror('boom') $$")
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	reply := rc.command(append([]byte{mysql.COM_QUERY}, "CALL fails()"...))
	// count, def, EOF, row, EOF, then the error
	if len(reply) != 6 || reply[0][0] != 1 || errCode(reply[5]) != 1644 || !strings.HasSuffix(string(reply[5]), "45000boom") {
		t.Fatalf("CALL fails(): %q, want the set then error 1644 boom", reply)
	}
	if reply := rc.command(append([]byte{mysql.COM_QUERY}, "SELEC 1"...)); len(reply) != 1 || errCode(reply[0]) != 1064 {
		t.Fatalf("next statement: %q, want only its error", reply)
	}
}
