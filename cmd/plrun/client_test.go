package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The batch-mode habits of the mysql client, each against the output
// MariaDB 10.11's client prints for the same input (checked by hand).

func newDB(t *testing.T, setup string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "db")
	if st, _, errOut := plrunCLI(t, "", "--data", dir, "--create", "-e", setup); st != 0 {
		t.Fatalf("setup: %s", errOut)
	}
	return dir
}

func TestBatchOutputFlags(t *testing.T) {
	dir := newDB(t, "create table t (id int primary key, name varchar(20)); insert into t values (1, '日本語'), (2, 'ab')")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-e", "select * from t"}, "id\tname\n1\t日本語\n2\tab\n"},
		{[]string{"-N", "-e", "select * from t"}, "1\t日本語\n2\tab\n"},
		{[]string{"-s", "-e", "select * from t"}, "1\t日本語\n2\tab\n"},
		{[]string{"-sN", "-e", "select id from t"}, "1\n2\n"},
		// USE with statements after it on the line runs as the first of them.
		{[]string{"-e", "use test; select database() as db"}, "db\ntest\n"},
		// Wide characters take two columns: the box stays aligned.
		{[]string{"-t", "-e", "select * from t"}, "+----+--------+\n| id | name   |\n+----+--------+\n|  1 | 日本語 |\n|  2 | ab     |\n+----+--------+\n"},
		{[]string{"-E", "-e", "select * from t where id = 1"}, "*************************** 1. row ***************************\n  id: 1\nname: 日本語\n"},
		{[]string{"-e", "select id from t where id = 2\\G select 7 as x"}, "*************************** 1. row ***************************\nid: 2\nx\n7\n"},
		{[]string{"--format", "csv", "-e", "select id, name, null as n from t"}, "id,name,n\n1,日本語,\n2,ab,\n"},
		{[]string{"--format", "json", "-e", "select id, name, null as n, 1.50 as d from t"}, "[{\"id\":1,\"name\":\"日本語\",\"n\":null,\"d\":1.50},\n{\"id\":2,\"name\":\"ab\",\"n\":null,\"d\":1.50}]\n"},
		{[]string{"--format", "vertical", "-e", "select id from t where id = 1"}, "*************************** 1. row ***************************\nid: 1\n"},
	} {
		args := append([]string{"--data", dir}, c.args...)
		st, out, errOut := plrunCLI(t, "", args...)
		if st != 0 || out != c.want {
			t.Errorf("plrun %s: status %d, stderr %q\ngot  %q\nwant %q", strings.Join(c.args, " "), st, errOut, out, c.want)
		}
	}
	if st, _, errOut := plrunCLI(t, "", "--data", dir, "--format", "xml", "-e", "select 1"); st != 2 || !strings.Contains(errOut, "--format") {
		t.Errorf("--format xml: %d %q", st, errOut)
	}
}

func TestBatchErrorsAndForce(t *testing.T) {
	dir := newDB(t, "create table t (a int)")
	script := "select 1 as a;\nselect * from nope;\nselect 2 as b;\n"
	st, out, errOut := plrunCLI(t, script, "--data", dir)
	if st != 1 || out != "a\n1\n" || errOut != "ERROR 1146 (42S02) at line 2: Table 'test.nope' doesn't exist\n" {
		t.Errorf("batch stops at the first error: %d %q %q", st, out, errOut)
	}
	// --force goes on; MariaDB's client then exits 0.
	st, out, errOut = plrunCLI(t, script, "--data", dir, "-f")
	if st != 0 || out != "a\n1\nb\n2\n" || !strings.Contains(errOut, "at line 2") {
		t.Errorf("--force: %d %q %q", st, out, errOut)
	}
	// A statement spanning lines is reported at the line it starts on.
	st, _, errOut = plrunCLI(t, "select 1;\n\nselect\n  *\nfrom nope;\n", "--data", dir)
	if st != 1 || !strings.Contains(errOut, "at line 3:") {
		t.Errorf("multi-line statement: %d %q", st, errOut)
	}
}

func TestSourceGoesOnAfterErrors(t *testing.T) {
	dir := newDB(t, "create table t (a int)")
	file := filepath.Join(t.TempDir(), "a.sql")
	if err := os.WriteFile(file, []byte("select 1 as a;\nselect * from nope;\nselect 2 as b;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, out, errOut := plrunCLI(t, "source "+file+"\nselect 3 as c;\n", "--data", dir)
	want := "ERROR 1146 (42S02) at line 2 in file: '" + file + "': Table 'test.nope' doesn't exist\n"
	if st != 0 || out != "a\n1\nb\n2\nc\n3\n" || errOut != want {
		t.Errorf("source: %d %q %q", st, out, errOut)
	}
	st, out, _ = plrunCLI(t, "source "+file+"\nselect 3 as c;\n", "--data", dir, "--abort-source-on-error")
	if st != 1 || out != "a\n1\n" {
		t.Errorf("--abort-source-on-error: %d %q", st, out)
	}
}

func TestDelimiterUseAndClientCommands(t *testing.T) {
	dir := newDB(t, "create database other; create table other.o (x int); insert into other.o values (9)")
	script := "delimiter //\n" +
		"select 1 as a; select 2 as b//\n" +
		"CREATE OR REPLACE PROCEDURE p() LANGUAGE LUA AS $$ session:runSql(\"select 1\"); $$//\n" +
		"delimiter ;\n" +
		"use other\n" +
		"select x from o;\n" +
		"select database() as db\n"
	st, out, errOut := plrunCLI(t, script, "--data", dir)
	if st != 0 || out != "a\n1\nb\n2\nx\n9\ndb\nother\n" {
		t.Errorf("delimiter/use: %d %q %q", st, out, errOut)
	}
	tee := filepath.Join(t.TempDir(), "tee.txt")
	st, out, errOut = plrunCLI(t, "tee "+tee+"\nselect 42 as answer;\nnotee\nselect 1 as not_teed;\nstatus\n", "--data", dir, "-i")
	if st != 0 {
		t.Fatalf("tee: %d %q", st, errOut)
	}
	teed, _ := os.ReadFile(tee)
	if !strings.Contains(string(teed), "| answer |") || strings.Contains(string(teed), "not_teed") {
		t.Errorf("tee file holds %q", teed)
	}
	for _, want := range []string{"Current database:     test", "Using delimiter:      ;", "Early lock release:   OFF", "Log flush mode:       1", "Data directory:       " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
}

func TestImportCSV(t *testing.T) {
	dir := newDB(t, "create table items (id int primary key, name varchar(20), price decimal(6,2))")
	csvFile := filepath.Join(t.TempDir(), "items.csv")
	if err := os.WriteFile(csvFile, []byte("id,name,price\n1,apple,1.50\n2,\"pear, green\",\\N\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, out, errOut := plrunCLI(t, ".import "+csvFile+" items\nselect id, name, price from items order by id;\n", "--data", dir)
	if st != 0 || out != "Imported 2 rows into items ("+out[len("Imported 2 rows into items ("):strings.Index(out, ")")]+")\n\nid\tname\tprice\n1\tapple\t1.50\n2\tpear, green\tNULL\n" {
		t.Errorf("import: %d %q %q", st, out, errOut)
	}
	// A bad record imports nothing.
	if err := os.WriteFile(csvFile, []byte("3,plum,2.00\n1,dup,1.00\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _, errOut = plrunCLI(t, ".import "+csvFile+" items\n", "--data", dir)
	if st != 1 || !strings.Contains(errOut, "1062") {
		t.Errorf("import of a duplicate: %d %q", st, errOut)
	}
	if st, out, _ := plrunCLI(t, "", "--data", dir, "-N", "-e", "select count(*) from items"); out != "2\n" {
		t.Errorf("after a failed import: %d %q", st, out)
	}
}

func TestDataFolderSafety(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	st, _, errOut := plrunCLI(t, "", "--data", missing, "-e", "select 1")
	if st != 1 || !strings.Contains(errOut, "no plrun database at "+missing) || !strings.Contains(errOut, "--create") {
		t.Errorf("missing folder: %d %q", st, errOut)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("the missing folder was created")
	}
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	st, _, errOut = plrunCLI(t, "", "--data", foreign, "--create", "-e", "select 1")
	if st != 1 || !strings.Contains(errOut, "not a plrun database (notes.txt)") {
		t.Errorf("foreign folder: %d %q", st, errOut)
	}
	st, out, _ := plrunCLI(t, "select 1 as a;\n", "--data", missing, "-i", "--create")
	if st != 0 || !strings.Contains(out, "Created a new database at "+missing) {
		t.Errorf("REPL --create: %d %q", st, out)
	}
	// The query logs' default files in a data folder are not foreign.
	st, _, errOut = plrunCLI(t, "", "--data", missing, "-e", "SET GLOBAL slow_query_log_file = 'h-slow.log'; SET GLOBAL long_query_time = 0; SET GLOBAL slow_query_log = ON; SELECT 1")
	if _, err := os.Stat(filepath.Join(missing, "h-slow.log")); st != 0 || err != nil {
		t.Fatalf("slow log in the data folder: %d %q %v", st, errOut, err)
	}
	if st, _, errOut = plrunCLI(t, "", "--data", missing, "-e", "select 1"); st != 0 {
		t.Errorf("a data folder holding its slow log refused: %q", errOut)
	}
}

// TestDataFolderInUse: a second plrun on a folder a running one holds is
// told who holds it (pid, command line without the password) and how to
// reach it if it is a server.
func TestDataFolderInUse(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := newDB(t, "select 1")
	bin := filepath.Join(t.TempDir(), "plrun")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--data", dir, "-i")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	buf := make([]byte, 256)
	if _, err := stdout.Read(buf); err != nil { // the welcome line: the folder is locked
		t.Fatal(err)
	}
	st, _, errOut := plrunCLI(t, "", "--data", dir, "-e", "select 1")
	if st != 1 || !strings.Contains(errOut, "is in use by another plrun process") ||
		!strings.Contains(errOut, "held by process "+itoa(cmd.Process.Pid)) {
		t.Errorf("in use: %d %q", st, errOut)
	}
	if got := strings.Join(redactPasswords([]string{"plrun", "serve", "--password", "s3cret", "--password=x"}), " "); got != "plrun serve --password *** --password=***" {
		t.Errorf("redact: %q", got)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestGlobalFlagsReachServe(t *testing.T) {
	fs := flag.NewFlagSet("plrun", flag.ContinueOnError)
	fs.String("data", "./plrun-data", "")
	fs.String("e", "", "")
	settings := settingsFlag{}
	fs.Var(settings, "set", "")
	if err := fs.Parse([]string{"--data", "/srv/db", "--set", "hotspot=ON", "serve"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(globalServeFlags(fs), " "); got != "--data /srv/db --set hotspot=ON" {
		t.Errorf("plrun --data X --set Y serve passes %q to serve", got)
	}
}

func TestHelpGoesToStdout(t *testing.T) {
	st, out, errOut := plrunCLI(t, "", "--help")
	if st != 0 || errOut != "" || !strings.Contains(out, "plrun serve") || !strings.Contains(out, "-format") {
		t.Errorf("--help: %d stdout %d bytes, stderr %q", st, len(out), errOut)
	}
}

// TestScriptModes: \lua and \js run chunks as DO blocks with session
// available; an expression shows its value; \sql goes back.
func TestScriptModes(t *testing.T) {
	dir := newDB(t, "create table t (a int)")
	in := "\\lua\n1 + 1;\nfor i = 1, 3 do\n  session:runSql(\"insert into t values (?)\", {i})\nend;\n" +
		"session:runSql(\"select sum(a) from t\"):fetchOne()[1];\n" +
		"\\js\n'ab'.repeat(2);\n\\sql\nselect count(*) as n from t;\n"
	st, out, errOut := plrunCLI(t, in, "--data", dir)
	if st != 0 || out != "result\n2\nresult\n6\nresult\nabab\nn\n3\n" {
		t.Errorf("script modes: %d %q %q", st, out, errOut)
	}
	st, _, errOut = plrunCLI(t, "\\lua\nerror('boom');\n", "--data", dir)
	// error() is the script's own: its message is exactly the one raised
	if st != 1 || errOut != "ERROR 1644 (45000) at line 2: boom\n" {
		t.Errorf("an error in lua mode: %d %q", st, errOut)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		st, out, errOut := plrunCLI(t, "", args...)
		if st != 0 || errOut != "" || !strings.HasPrefix(out, "plrun ") || !strings.Contains(out, "go1.") || !strings.Contains(out, "8.0.36-plrun") {
			t.Errorf("plrun %v: %d %q %q", args, st, out, errOut)
		}
	}
}
