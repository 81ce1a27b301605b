package server

import (
	"context"
	gosql "database/sql"
	"os/exec"
	"strings"
	"testing"
	"time"
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
	db := ts.open(t)
	db.SetMaxOpenConns(1)
	mustExec(t, db, twoSetsLua)
	for _, tc := range []struct {
		q    string
		args []any
	}{{"CALL two_sets(21)", nil}, {"CALL two_sets(?)", []any{21}}} {
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
		if got, want := strings.Join(sets, " "), "a=21 b,c=x,42"; got != want {
			t.Errorf("%s: sets %q, want %q", tc.q, got, want)
		}
		var one int
		if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("after %s: SELECT 1 = %d, %v", tc.q, one, err)
		}
	}
}
