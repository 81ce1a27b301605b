package slt_test

import (
	"bufio"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
	"github.com/plrun/plrun"
	"github.com/plrun/plrun/internal/slt"
)

var (
	mariadb = flag.String("slt.mariadb", "", "DSN of a MariaDB server (e.g. root@tcp(127.0.0.1:3306)/) to run the corpus against instead of plrun")
	only    = flag.String("slt.files", "", "comma-separated files (e.g. select4.test) to run; default all")
	maxExec = flag.String("slt.max_execution_time", "0", "plrun's max_execution_time (ms) per statement, to survey a slow file")
)

const corpusDir = "../../testdata/sqllogictest"

func corpusFiles(t testing.TB) []string {
	var files []string
	for _, pat := range []string{"*.test", "evidence/*.test"} {
		m, err := filepath.Glob(filepath.Join(corpusDir, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	if *only == "" {
		return files
	}
	var out []string
	for _, f := range files {
		for _, w := range strings.Split(*only, ",") {
			if rel(f) == w {
				out = append(out, f)
			}
		}
	}
	return out
}

func rel(f string) string {
	r, _ := filepath.Rel(corpusDir, f)
	return filepath.ToSlash(r)
}

// knownFailures reads file:line -> reason.
func knownFailures(t testing.TB) map[string]string {
	f, err := os.Open(filepath.Join(corpusDir, "known-failures"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		pos, why, _ := strings.Cut(l, " ")
		out[pos] = strings.TrimSpace(why)
	}
	return out
}

// plrunDB runs records on an embedded plrun session.
type plrunDB struct{ s *plrun.Session }

func (d plrunDB) Exec(q string) error {
	_, err := d.s.Exec(context.Background(), q)
	return err
}

func (d plrunDB) Query(q string) ([][]slt.Cell, error) {
	res, err := d.s.Query(context.Background(), q)
	if err != nil {
		return nil, err
	}
	out := make([][]slt.Cell, len(res.Rows))
	for i, row := range res.Rows {
		out[i] = make([]slt.Cell, len(row))
		for j, v := range row {
			out[i][j] = slt.Cell{S: v.String(), Null: v.IsNull()}
		}
	}
	return out, nil
}

// sqlDB runs records on a MariaDB connection.
type sqlDB struct{ c *sql.Conn }

func (d sqlDB) Exec(q string) error {
	_, err := d.c.ExecContext(context.Background(), q)
	return err
}

func (d sqlDB) Query(q string) ([][]slt.Cell, error) {
	rows, err := d.c.QueryContext(context.Background(), q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]slt.Cell
	for rows.Next() {
		vals := make([]sql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]slt.Cell, len(cols))
		for i, v := range vals {
			row[i] = slt.Cell{S: string(v), Null: v == nil}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// openEngine gives a fresh database for one file and a cleanup.
func openEngine(t testing.TB, file string) (slt.DB, func()) {
	return openOn(t, *mariadb, file)
}

// openOn opens a fresh database on the MariaDB at dsn, or on an embedded
// plrun when dsn is "".
func openOn(t testing.TB, dsn, file string) (slt.DB, func()) {
	if dsn != "" {
		pool, err := sql.Open("mysql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		c, err := pool.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		name := "slt_" + strings.NewReplacer("/", "_", ".", "_").Replace(rel(file))
		for _, q := range []string{"DROP DATABASE IF EXISTS " + name, "CREATE DATABASE " + name, "USE " + name} {
			if _, err := c.ExecContext(context.Background(), q); err != nil {
				t.Fatal(err)
			}
		}
		return sqlDB{c}, func() {
			c.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name)
			c.Close()
			pool.Close()
		}
	}
	// Each file is its own database; durability is not what is tested.
	db, err := plrun.Open(t.TempDir(), &plrun.Options{Settings: map[string]string{"innodb_flush_log_at_trx_commit": "0", "max_execution_time": *maxExec}})
	if err != nil {
		t.Fatal(err)
	}
	s := db.Session()
	for _, q := range []string{"CREATE DATABASE slt", "USE slt"} {
		if _, err := s.Exec(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	return plrunDB{s}, func() { s.Close(); db.Close() }
}

func loadFile(t testing.TB, file string) []*slt.Record {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := slt.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", rel(file), err)
	}
	return recs
}

// TestCorpus runs every file and fails on any record that fails and is
// not in known-failures, or that is listed and now passes. Against
// MariaDB (-slt.mariadb) it only reports: MariaDB is the bar, not the
// engine under test.
func TestCorpus(t *testing.T) {
	known := knownFailures(t)
	for _, file := range corpusFiles(t) {
		file := file
		t.Run(rel(file), func(t *testing.T) {
			t.Parallel() // each file has its own database
			recs := loadFile(t, file)
			db, done := openEngine(t, file)
			defer done()
			start := time.Now()
			st := slt.RunFile(db, "mysql", recs)
			t.Logf("%s: %d of %d pass, %d skipped, %.1f s", rel(file), st.Passed, st.Run, st.Skipped, time.Since(start).Seconds())
			failed := map[string]bool{}
			for _, f := range st.Failures {
				pos := fmt.Sprintf("%s:%d", rel(file), f.Record.Line)
				failed[pos] = true
				if *mariadb != "" {
					t.Logf("%s: %s", pos, f.Err)
					continue
				}
				if _, ok := known[pos]; !ok {
					t.Errorf("%s: %s\n%s", pos, f.Err, f.Record.SQL)
				}
			}
			if *mariadb != "" {
				return
			}
			prefix := rel(file) + ":"
			for pos := range known {
				if strings.HasPrefix(pos, prefix) && !failed[pos] {
					t.Errorf("%s passes now: remove it from known-failures", pos)
				}
			}
		})
	}
}
