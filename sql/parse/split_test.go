package parse

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitStatements(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		stmts []string
		rest  string
	}{
		{"empty", "", nil, ""},
		{"only whitespace and separators", " ;\n ; ;", nil, ""},
		{"one", "select 1;", []string{"select 1"}, ""},
		{"no terminator is rest", "select 1", nil, "select 1"},
		{"two and rest", "select 1; select 2;\nselect", []string{"select 1", "select 2"}, "select"},
		{"trims whitespace", "\n\t select 1 \n;\n", []string{"select 1"}, ""},
		{"single quotes", "insert into t values ('a;b');", []string{"insert into t values ('a;b')"}, ""},
		{"doubled single quote", "select 'it''s; fine';", []string{"select 'it''s; fine'"}, ""},
		{"backslash escaped quote", `select 'a\';b';`, []string{`select 'a\';b'`}, ""},
		{"double quotes", `select "x;y", 'z';`, []string{`select "x;y", 'z'`}, ""},
		{"backquoted identifier", "select `a;b` from `t``;`;", []string{"select `a;b` from `t``;`"}, ""},
		{"backslash is literal in backquotes", "select `a\\`;", []string{"select `a\\`"}, ""},
		{"unterminated string is rest", "select 'abc;\n", nil, "select 'abc;\n"},
		{"rest keeps trailing bytes inside a string", "select 1; select 'a  \n", []string{"select 1"}, "select 'a  \n"},
		{"dash comment", "select 1 -- x; y\n;", []string{"select 1 -- x; y"}, ""},
		{"dash needs a space", "update t set k=k--1;", []string{"update t set k=k--1"}, ""},
		{"dash at end of input", "select 1; --", []string{"select 1"}, ""},
		{"hash comment", "select 1 # a;b\n, 2;", []string{"select 1 # a;b\n, 2"}, ""},
		{"block comment", "select /* ; */ 1;", []string{"select /* ; */ 1"}, ""},
		{"unterminated block comment is rest", "select 1; /* a;", []string{"select 1"}, "/* a;"},
		{"leading comments dropped", "-- setup\n# more\n/* and */ create table t (a int);", []string{"create table t (a int)"}, ""},
		{"comment-only statement dropped", "-- nothing here\n;select 1;", []string{"select 1"}, ""},
		{"comment-only tail is not rest", "select 1; -- done\n", []string{"select 1"}, ""},
		{"hint kept", "/*+ COMMIT_ON_SUCCESS */ update t set k=1;", []string{"/*+ COMMIT_ON_SUCCESS */ update t set k=1"}, ""},
		{"executable comment kept", "/*!40101 SET NAMES utf8 */;", []string{"/*!40101 SET NAMES utf8 */"}, ""},
		{
			"dollar body keeps semicolons",
			"CREATE PROCEDURE p(IN n INT) LANGUAGE LUA AS $$ for i = 1, n do session:runSql(\"INSERT INTO t VALUES (?)\", {i}); session:commit() end $$; CALL p(3);",
			[]string{"CREATE PROCEDURE p(IN n INT) LANGUAGE LUA AS $$ for i = 1, n do session:runSql(\"INSERT INTO t VALUES (?)\", {i}); session:commit() end $$", "CALL p(3)"},
			"",
		},
		{
			"tagged dollar body may hold $$",
			"create procedure p() language javascript as $js$ let s = '$$'; f(); $js$;",
			[]string{"create procedure p() language javascript as $js$ let s = '$$'; f(); $js$"},
			"",
		},
		{"quotes inside a body do not matter", "as $$ x = 'unclosed; $$;", []string{"as $$ x = 'unclosed; $$"}, ""},
		{"dollar comment markers inside a body", "as $$ -- ; \n /* ; $$;", []string{"as $$ -- ; \n /* ; $$"}, ""},
		{"unterminated body is rest", "select 1; as $$ a; b;\n", []string{"select 1"}, "as $$ a; b;\n"},
		{"dollar in an identifier is not a tag", "select a$b$ from t; select 2;", []string{"select a$b$ from t", "select 2"}, ""},
		{"dollar digit is not a tag", "select $1$; select 2;", []string{"select $1$", "select 2"}, ""},
		{"lone dollar", "select $; select 2;", []string{"select $", "select 2"}, ""},
		{"multi-line statement", "CREATE TABLE t (\n  id int,\n  k int\n);", []string{"CREATE TABLE t (\n  id int,\n  k int\n)"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stmts, rest := SplitStatements(tc.in)
			if !reflect.DeepEqual(stmts, tc.stmts) || rest != tc.rest {
				t.Fatalf("SplitStatements(%q)\n got %q rest %q\nwant %q rest %q", tc.in, stmts, rest, tc.stmts, tc.rest)
			}
		})
	}
}

// TestSplitStatementsLineByLine feeds a script one line at a time, as the
// REPL does, and checks it yields what the whole script yields at once.
func TestSplitStatementsLineByLine(t *testing.T) {
	script := "CREATE TABLE `sbtest1` (\n  `id` int(11) NOT NULL AUTO_INCREMENT,\n  `c` char(120) NOT NULL DEFAULT '',\n  PRIMARY KEY (`id`)\n);\n" +
		"insert into sbtest1 values(1,'a;\nb');\n" +
		"create procedure p(in n int) language lua as $$\nfor i = 1, n do\n  session:commit(); -- ;\nend\n$$;\n" +
		"-- comment ; only\nselect 1; select 2;\n"
	want, wantRest := SplitStatements(script)
	if len(want) != 5 || wantRest != "" {
		t.Fatalf("whole script: %d statements %q, rest %q", len(want), want, wantRest)
	}
	var got []string
	buf := ""
	for _, line := range strings.SplitAfter(script, "\n") {
		stmts, rest := SplitStatements(buf + line)
		got = append(got, stmts...)
		buf = rest
	}
	if !reflect.DeepEqual(got, want) || buf != "" {
		t.Fatalf("line by line:\n got %q rest %q\nwant %q", got, buf, want)
	}
}

func FuzzSplitStatements(f *testing.F) {
	for _, seed := range []string{
		"select 1; select 2;",
		"select 'a;b' -- c;\n; x",
		"as $$ a; $$; $t$ $$ $t$;",
		"/* a; */ b; /*+ h */ c; # d;\n e",
		"`a``;` \"b\\\";\" 'c'';'",
		"update t set k=k--1; --",
		"$", "$$", "$a", "'", "/*", "--", "\\",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		stmts, rest := SplitStatements(script)
		for _, s := range stmts {
			if s == "" || s != strings.TrimFunc(s, isSpace) || trimLeading(s) != s {
				t.Fatalf("statement %q is empty or not trimmed (input %q)", s, script)
			}
		}
		if rest != "" && trimLeading(rest) != rest {
			t.Fatalf("rest %q has leading space or comments (input %q)", rest, script)
		}
		// Statements are lexically closed: joined again on their own lines,
		// they split back to exactly themselves, and rest stays rest.
		var b strings.Builder
		for _, s := range stmts {
			b.WriteString(s)
			b.WriteString("\n;\n")
		}
		b.WriteString(rest)
		again, againRest := SplitStatements(b.String())
		if !reflect.DeepEqual(again, stmts) || againRest != rest {
			t.Fatalf("re-split of %q\n got %q rest %q\nwant %q rest %q", script, again, againRest, stmts, rest)
		}
	})
}

func TestOpenQuote(t *testing.T) {
	for in, want := range map[string]string{
		"select 1":              "",
		"select 'abc":           "'",
		"select 'a''b":          "'",
		"select 'a''b'":         "",
		`select "x\"`:           `"`,
		"select `col":           "`",
		"select 1 /* note":      "/*",
		"select 1 /* note */ 2": "",
		"select 'it''s' -- '":   "",
	} {
		if got := OpenQuote(in); got != want {
			t.Errorf("OpenQuote(%q) = %q, want %q", in, got, want)
		}
	}
}
