package main

import (
	"strings"
	"testing"
)

// A CALL whose procedure emits two result sets prints both, one after the
// other, as `mysql --batch` does (the CALL's OK prints nothing there), and
// in the REPL each set with its row count, then the CALL's Query OK.
const twoSetsProc = "CREATE PROCEDURE two_sets() LANGUAGE LUA AS $$\n" +
	"  session:emit({'a'}, {{1}})\n" +
	"  session:emit(session:runSql(\"SELECT 'x' AS b, 2 AS c\"))\n" +
	"$$;\n"

func TestBatchCallPrintsEachSet(t *testing.T) {
	dir := t.TempDir()
	status, out, errOut := plrunCLI(t, twoSetsProc+"CALL two_sets();\nselect 'after' as d;\n", "--data", dir, "--create")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	if want := "a\n1\nb\tc\nx\t2\nd\nafter\n"; out != want {
		t.Fatalf("stdout %q, want %q", out, want)
	}
}

func TestREPLCallPrintsEachSetThenOK(t *testing.T) {
	dir := t.TempDir()
	status, out, errOut := plrunCLI(t, twoSetsProc+"CALL two_sets();\nexit\n", "--data", dir, "--create", "-i")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q\n%s", status, errOut, out)
	}
	want := "plrun [test]> CALL two_sets();\n" +
		"+---+\n| a |\n+---+\n| 1 |\n+---+\n1 row in set (0."
	want2 := "+---+---+\n| b | c |\n+---+---+\n| x | 2 |\n+---+---+\n1 row in set (0."
	i, j, k := strings.Index(out, want), strings.Index(out, want2), strings.LastIndex(out, "Query OK, 0 rows affected (0.")
	if i < 0 || j < i || k < j {
		t.Fatalf("transcript lacks the two sets then the OK, in order:\n%s", out)
	}
}

// TestBatchFailedCallPrintsSetsThenError: as the mysql client shows a
// procedure that SELECTs and then SIGNALs: the set, then the error.
func TestBatchFailedCallPrintsSetsThenError(t *testing.T) {
	dir := t.TempDir()
	script := "CREATE PROCEDURE f() LANGUAGE JAVASCRIPT AS $$ session.emit(['a'], [[1]]); throw 'boom'; $$;\ncall f();\n"
	status, out, errOut := plrunCLI(t, script, "--data", dir, "--create")
	if status != 1 || out != "a\n1\n" || errOut != "ERROR 1644 (45000) at line 2: boom\n" {
		t.Fatalf("status %d, stdout %q, stderr %q; want 1, the set, then the error (as MariaDB)", status, out, errOut)
	}
}
