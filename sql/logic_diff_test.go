package sql_test

import (
	dbsql "database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"
)

// TestLogicDifferential runs random expressions of three-valued logic
// (comparisons, BETWEEN, IN lists, NOT/AND/OR/XOR, IS [NOT] NULL/TRUE,
// CASE, IF, COALESCE, NULLIF, LEAST/GREATEST, ANY/ALL subqueries) over
// integers and NULLs in plrun and in a MariaDB, and fails on the first
// answer that differs. It needs a MariaDB: it runs only when
// PLRUN_MARIADB_DSN is set (go-sql-driver form), so not in make test:
//
//	PLRUN_MARIADB_DSN='root@tcp(127.0.0.1:3405)/test' go test ./sql -run LogicDifferential -v
//
// PLRUN_DIFF_SEED picks the random sequence (default 1).
func TestLogicDifferential(t *testing.T) {
	dsn := os.Getenv("PLRUN_MARIADB_DSN")
	if dsn == "" {
		t.Skip("PLRUN_MARIADB_DSN not set: no MariaDB to compare with")
	}
	db, err := dbsql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, s := newHostileSession(t)
	setup := []string{
		"DROP TABLE IF EXISTS logic_v",
		"CREATE TABLE logic_v (id INT PRIMARY KEY, a INT, b INT)",
		"INSERT INTO logic_v VALUES (1, NULL, 1), (2, 1, NULL), (3, 2, 2), (4, 3, 0), (5, NULL, NULL)",
	}
	for _, q := range setup {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("mariadb: %s: %v", q, err)
		}
		if !strings.HasPrefix(q, "DROP") {
			mustExec(t, s, q)
		}
	}
	seed := uint64(1)
	fmt.Sscan(os.Getenv("PLRUN_DIFF_SEED"), &seed)
	g := &logicGen{r: rand.New(rand.NewPCG(seed, 7))}
	compared := 0
	for i := 0; i < 400; i++ {
		e := g.boolean(3)
		q := "SELECT id, " + e + " FROM logic_v ORDER BY id"
		want, err := mariadbRows(db, q)
		if err != nil {
			continue // MariaDB refuses it: nothing to compare
		}
		r, err := s.Exec(t.Context(), q, nil)
		if err != nil {
			t.Fatalf("%s\nplrun: %v\nmariadb: %v", q, err, want)
		}
		var got []string
		for _, row := range r.Rows {
			got = append(got, row[0].String()+" "+row[1].String())
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%s\nplrun:   %v\nmariadb: %v", q, got, want)
		}
		compared++
	}
	if compared < 300 {
		t.Fatalf("only %d of 400 expressions compared: MariaDB refused the rest", compared)
	}
	t.Logf("%d expressions, 5 rows each, the same in plrun and MariaDB", compared)
}

func mariadbRows(db *dbsql.DB, q string) ([]string, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, v dbsql.NullString
		if err := rows.Scan(&id, &v); err != nil {
			return nil, err
		}
		s := "NULL"
		if v.Valid {
			s = v.String
		}
		out = append(out, id.String+" "+s)
	}
	return out, rows.Err()
}

// logicGen writes random expressions over logic_v's a and b.
type logicGen struct{ r *rand.Rand }

func (g *logicGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *logicGen) value(depth int) string {
	if depth <= 0 || g.r.IntN(3) > 0 {
		return g.pick("a", "b", "NULL", "0", "1", "2", "3")
	}
	d := depth - 1
	switch g.r.IntN(6) {
	case 0:
		return "CASE WHEN " + g.boolean(d) + " THEN " + g.value(d) + " ELSE " + g.value(d) + " END"
	case 1:
		return "IF(" + g.boolean(d) + ", " + g.value(d) + ", " + g.value(d) + ")"
	case 2:
		return "COALESCE(" + g.value(d) + ", " + g.value(d) + ")"
	case 3:
		return "NULLIF(" + g.value(d) + ", " + g.value(d) + ")"
	case 4:
		return g.pick("LEAST", "GREATEST") + "(" + g.value(d) + ", " + g.value(d) + ")"
	}
	return "CASE " + g.value(d) + " WHEN " + g.value(d) + " THEN 1 WHEN NULL THEN 2 ELSE 3 END"
}

func (g *logicGen) boolean(depth int) string {
	d := depth - 1
	if depth <= 0 {
		return g.value(0) + " " + g.pick("=", "<>", "<", "<=", ">", ">=", "<=>") + " " + g.value(0)
	}
	switch g.r.IntN(9) {
	case 0:
		return "(" + g.boolean(d) + " " + g.pick("AND", "OR", "XOR") + " " + g.boolean(d) + ")"
	case 1:
		return "NOT (" + g.boolean(d) + ")"
	case 2:
		return g.value(d) + g.pick(" ", " NOT ") + "BETWEEN " + g.value(d) + " AND " + g.value(d)
	case 3:
		return g.value(d) + g.pick(" IN (", " NOT IN (") + g.value(d) + ", " + g.value(d) + ")"
	case 4:
		return "(" + g.boolean(d) + ") IS " + g.pick("", "NOT ") + g.pick("TRUE", "FALSE", "NULL")
	case 5:
		return g.value(d) + " " + g.pick("=", "<>", "<", ">=") + " " + g.pick("ANY", "ALL") +
			" (SELECT " + g.pick("a", "b") + " FROM logic_v WHERE id " + g.pick("<", ">") + " " + g.pick("1", "3", "6") + ")"
	case 6:
		return g.value(d) + g.pick(" IN ", " NOT IN ") + "(SELECT " + g.pick("a", "b") + " FROM logic_v WHERE id > " + g.pick("1", "3", "5") + ")"
	}
	return g.value(d) + " " + g.pick("=", "<>", "<", "<=", ">", ">=", "<=>") + " " + g.value(d)
}
