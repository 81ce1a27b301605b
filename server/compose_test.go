package server

import (
	"strings"
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// TestPreparedComposedQueries: COM_STMT_PREPARE describes the columns of
// a UNION, a WITH query and a window function query, and their prepared
// executions (the binary protocol, database/sql's placeholders) answer.
func TestPreparedComposedQueries(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	db := ts.open(t)
	mustExec(t, db, "CREATE TABLE pq (id INT PRIMARY KEY, k INT, c CHAR(10))")
	mustExec(t, db, "INSERT INTO pq VALUES (1, 30, 'a'), (2, 10, 'b'), (3, 20, 'c')")
	rc := dialRaw(t, ts.addr)
	rc.login("root", "root", "test")
	cases := []struct {
		query string
		cols  string
		want  string
	}{
		{"SELECT c FROM pq WHERE id = ? UNION SELECT 'z' AS other ORDER BY c", "c", "a|z"},
		{"WITH d AS (SELECT id, k FROM pq WHERE id >= ?) SELECT id, ROW_NUMBER() OVER (ORDER BY k) AS rn FROM d ORDER BY id", "id,rn", "1 3|2 1|3 2"},
		{"SELECT n FROM (SELECT k + ? AS n FROM pq) AS t WHERE n > 15 ORDER BY n", "n", "21|31"},
	}
	for _, c := range cases {
		reply := rc.command(append([]byte{mysql.COM_STMT_PREPARE}, c.query...))
		if errCode(reply[0]) != 0 {
			t.Fatalf("prepare %s: %q", c.query, reply[0])
		}
		// OK, 1 parameter definition + EOF, the columns + EOF.
		var names []string
		for _, def := range reply[3 : len(reply)-1] {
			f := &mysql.Field{}
			if err := f.Parse(def); err != nil {
				t.Fatal(err)
			}
			names = append(names, string(f.Name))
		}
		if strings.Join(names, ",") != c.cols {
			t.Fatalf("%s: described columns %v, want %s", c.query, names, c.cols)
		}
		rows, err := db.Query(c.query, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		var got []string
		for rows.Next() {
			vals := make([]string, len(names))
			ptrs := make([]any, len(vals))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.Join(vals, " "))
		}
		rows.Close()
		if strings.Join(got, "|") != c.want {
			t.Fatalf("%s: rows %v, want %s", c.query, got, c.want)
		}
	}
}
