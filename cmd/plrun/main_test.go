package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plrun/plrun/sql"

	"github.com/plrun/plrun/types"
)

// plrunCLI runs the command line in-process and returns its exit status
// and what it printed.
func plrunCLI(t *testing.T, stdin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, strings.NewReader(stdin), &out, &errOut)
	return status, out.String(), errOut.String()
}

const seedDDL = "CREATE TABLE `sbtest1` (\n" +
	"`id` int(11) NOT NULL AUTO_INCREMENT,\n" +
	"`k` int(11) NOT NULL DEFAULT '0',\n" +
	"`c` char(120) NOT NULL DEFAULT '',\n" +
	"`pad` char(60) NOT NULL DEFAULT '',\n" +
	"PRIMARY KEY (`id`)\n" +
	");\n"

func TestExecPrintsBatchOutput(t *testing.T) {
	dir := t.TempDir()
	status, out, errOut := plrunCLI(t, "", "--data", dir, "--create", "-e",
		"create table t (id int primary key, k int, c varchar(10)); "+
			"insert into t values (1, 0, 'a;b'), (2, NULL, 'tab\there'); "+
			"select id, k, c from t order by id; "+
			"select k from t where id = 99; "+
			"select count(*) as n from t") // the last statement has no ';'
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	want := "id\tk\tc\n1\t0\ta;b\n2\tNULL\ttab\\there\nn\n2\n"
	if out != want {
		t.Fatalf("stdout\n%q\nwant\n%q", out, want)
	}
}

func TestPipedScriptRunsInBatchMode(t *testing.T) {
	dir := t.TempDir()
	script := "-- the seed's table\n" + seedDDL +
		"insert into sbtest1 values(1,0,'aa','aa');\n" +
		"update sbtest1 set k=k+1 where id=1; update sbtest1\n  set k=k+1\n  where id=1;\n" +
		"/* a comment; with a semicolon */\n" +
		"select id, k, c from sbtest1 where id=1;\n"
	status, out, errOut := plrunCLI(t, script, "--data", dir, "--create")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	if want := "id\tk\tc\n1\t2\taa\n"; out != want {
		t.Fatalf("stdout %q, want %q", out, want)
	}
}

func TestFailingStatementExitsOne(t *testing.T) {
	dir := t.TempDir()
	status, out, errOut := plrunCLI(t, "", "--data", dir, "--create", "-e",
		"select 'before' as x; select * from nosuch; select 'after' as y;")
	if status != 1 {
		t.Fatalf("status %d, want 1", status)
	}
	if want := "ERROR 1146 (42S02) at line 1: Table 'test.nosuch' doesn't exist\n"; errOut != want {
		t.Fatalf("stderr %q, want %q", errOut, want)
	}
	if out != "x\nbefore\n" {
		t.Fatalf("stdout %q: want only the statement before the error", out)
	}

	status, _, errOut = plrunCLI(t, "select 1;\nselec 2;\nselect 3;\n", "--data", dir, "--create")
	if status != 1 || !strings.HasPrefix(errOut, "ERROR 1064 (42000) at line 2: ") {
		t.Fatalf("piped syntax error: status %d, stderr %q", status, errOut)
	}
}

func TestREPLThroughPipe(t *testing.T) {
	dir := t.TempDir()
	session := seedDDL +
		"insert into sbtest1 values(1,0,'aa','aa');\n" +
		"update sbtest1 set k=k+1 where id=1;\n" +
		"select id, k, c\n  from sbtest1\n  where id=1;\n" +
		"select * from sbtest1 where id=2;\n" +
		"select * from nosuch;\n" +
		"select id, k from sbtest1\\G\n" +
		"this is \\c\n" +
		"exit\n" +
		"select 'not reached';\n"
	status, out, errOut := plrunCLI(t, session, "--data", dir, "--create", "-i")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q\n%s", status, errOut, out)
	}
	for _, want := range []string{
		"plrun [test]> CREATE TABLE `sbtest1` (\n    -> `id` int(11) NOT NULL AUTO_INCREMENT,\n",
		"Query OK, 0 rows affected (",
		"plrun [test]> insert into sbtest1 values(1,0,'aa','aa');\nQuery OK, 1 row affected (",
		"Query OK, 1 row affected (0.",
		"\nRows matched: 1  Changed: 1  Warnings: 0\n",
		"+----+---+----+\n| id | k | c  |\n+----+---+----+\n|  1 | 1 | aa |\n+----+---+----+\n1 row in set (",
		"Empty set (",
		"ERROR 1146 (42S02): Table 'test.nosuch' doesn't exist\n",
		"*************************** 1. row ***************************\nid: 1\n k: 1\n1 row in set (",
		"plrun [test]> exit\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if strings.Contains(out, "not reached") || !strings.HasSuffix(out, "plrun [test]> exit\nBye\n") {
		t.Errorf("input after exit was read, or plrun did not say Bye")
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", out)
	}
}

func TestDataSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	if status, _, errOut := plrunCLI(t, seedDDL+"insert into sbtest1 values(1,0,'aa','aa');\nupdate sbtest1 set k=k+41 where id=1;\n", "--data", dir, "--create"); status != 0 {
		t.Fatalf("first run: status %d, %s", status, errOut)
	}
	if status, _, errOut := plrunCLI(t, "", "--data", dir, "--create", "-e", "update sbtest1 set k=k+1 where id=1"); status != 0 {
		t.Fatalf("second run: status %d, %s", status, errOut)
	}
	status, out, errOut := plrunCLI(t, "", "--data", dir, "--create", "-e", "select k from sbtest1 where id=1")
	if status != 0 || out != "k\n42\n" {
		t.Fatalf("after reopen: status %d, stdout %q, stderr %q", status, out, errOut)
	}
}

func TestSourceRunsAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "setup.sql")
	if err := os.WriteFile(file, []byte("create table t (a int);\ninsert into t values (7);\nselect a from t\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, errOut := plrunCLI(t, "source "+file+"\nselect a + 1 as b from t;\n", "--data", dir, "--create")
	if status != 0 || out != "a\n7\nb\n8\n" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errOut)
	}
}

func TestProcedureBodyKeepsSemicolons(t *testing.T) {
	dir := t.TempDir()
	script := "create table test1 (a int);\n" +
		"CREATE OR REPLACE PROCEDURE fill(IN n INT) LANGUAGE LUA AS $$\n" +
		"  for i = 1, n do\n" +
		"    session:runSql(\"INSERT INTO test1 (a) VALUES (?)\", {i}); session:commit()\n" +
		"  end\n$$;\n" +
		"CALL fill(3);\n" +
		"select count(*) as n, sum(a) as s from test1;\n"
	status, out, errOut := plrunCLI(t, script, "--data", dir, "--create")
	if status != 0 || out != "n\ts\n3\t6\n" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errOut)
	}
}

func TestHelpListsCommandsAndSettings(t *testing.T) {
	status, out, _ := plrunCLI(t, "", "help")
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	for _, want := range []string{"plrun bench hotrow", "plrun serve", "-e", "enable_early_lock_release", "ob_enable_pl_async_commit", "plrun_log_sync_delay_us"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	if status, _, errOut := plrunCLI(t, "", "frobnicate"); status != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: status %d, stderr %q", status, errOut)
	}
}

func TestTablePrinterAlignsLikeMySQL(t *testing.T) {
	res := &sql.Result{
		Columns: []sql.Column{
			{Name: "id", Type: types.ColType{Base: types.TInt}},
			{Name: "name", Type: types.ColType{Base: types.TVarchar, Length: 20}},
		},
		Rows: [][]types.Value{
			{types.IntValue(1), types.StringValue("ab")},
			{types.IntValue(100), types.Null},
		},
	}
	repl := &printer{format: "table", interactive: true}
	want := "+-----+------+\n" +
		"| id  | name |\n" +
		"+-----+------+\n" +
		"|   1 | ab   |\n" +
		"| 100 | NULL |\n" +
		"+-----+------+\n" +
		"2 rows in set (1.50 sec)\n\n"
	if got := repl.render("select id, name from t", res, 1500*time.Millisecond, false); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	ok := &sql.Result{AffectedRows: 1, Info: "Rows matched: 1  Changed: 1  Warnings: 0"}
	if got, want := repl.render("update t set k=k+1", ok, 0, false), "Query OK, 1 row affected (0.00 sec)\nRows matched: 1  Changed: 1  Warnings: 0\n\n"; got != want {
		t.Fatalf("OK: got %q, want %q", got, want)
	}
	if got := repl.render("use test", &sql.Result{}, 0, false); got != "Database changed\n\n" {
		t.Fatalf("USE: got %q", got)
	}
}

func TestBatchPrinterEscapes(t *testing.T) {
	res := &sql.Result{
		Columns: []sql.Column{{Name: "a"}, {Name: "b"}},
		Rows:    [][]types.Value{{types.StringValue("x\ty\nz\\"), types.Null}},
	}
	batch := &printer{format: "tsv"}
	if got, want := batch.render("", res, 0, false), "a\tb\nx\\ty\\nz\\\\\tNULL\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := batch.render("", &sql.Result{Columns: []sql.Column{{Name: "a"}}}, 0, false) + batch.render("", &sql.Result{AffectedRows: 3}, 0, false); got != "" {
		t.Fatalf("empty set and OK printed %q", got)
	}
}
