package optfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func show(opts []Option) string {
	var b strings.Builder
	for _, o := range opts {
		fmt.Fprintf(&b, "%s:%02d %s", filepath.Base(o.File), o.Line, o.Name)
		if o.HasValue {
			b.WriteString("=[" + o.Value + "]")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestReadSyntax(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "my.cnf", `# a comment
; another
[client]
user = nobody
[PLRUN]
listen = 127.0.0.1:3307   # trailing comment
skip_thing
enable-early-lock-release=ON
quoted = "a # not a comment"
single='it''s'
esc = a\tb\sc\\d\"e\qf
  spaced  =   value with spaces   
empty=
[mysqld]
port=1
[plrun]
hash_in_quotes = 'x#y' # z
`)
	opts, err := Read(p, "plrun")
	if err != nil {
		t.Fatal(err)
	}
	want := `my.cnf:06 listen=[127.0.0.1:3307]
my.cnf:07 skip_thing
my.cnf:08 enable-early-lock-release=[ON]
my.cnf:09 quoted=[a # not a comment]
my.cnf:10 single=[it''s]
my.cnf:11 esc=[a	b c\d"e\qf]
my.cnf:12 spaced=[value with spaces]
my.cnf:13 empty=[]
my.cnf:17 hash_in_quotes=[x#y]
`
	if got := show(opts); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestIncludes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "conf.d/b.cnf", "[plrun]\nfrom_b=2\n")
	write(t, dir, "conf.d/a.cnf", "[plrun]\nfrom_a=1\n[other]\nno=1\n")
	write(t, dir, "conf.d/skip.txt", "[plrun]\nnot_read=1\n")
	write(t, dir, "extra.cnf", "[plrun]\nfrom_extra=3\n")
	p := write(t, dir, "main.cnf", "[plrun]\nfirst=0\n!includedir conf.d # the rest\n!include extra.cnf\nlast=4\n")
	opts, err := Read(p, "plrun")
	if err != nil {
		t.Fatal(err)
	}
	want := "main.cnf:02 first=[0]\na.cnf:02 from_a=[1]\nb.cnf:02 from_b=[2]\nextra.cnf:02 from_extra=[3]\nmain.cnf:05 last=[4]\n"
	if got := show(opts); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "self.cnf", "[plrun]\n!include self.cnf\n")
	for name, tc := range map[string]struct{ text, want string }{
		"no group":    {"a=1\n", "bad.cnf:1: found option without preceding group"},
		"open group":  {"[plrun\n", "bad.cnf:1: wrong group definition"},
		"missing inc": {"[plrun]\n!include nothere.cnf\n", "bad.cnf:2: !include"},
		"bad dir":     {"[plrun]\n!includedir nothere\n", "bad.cnf:2: !includedir"},
		"directive":   {"[plrun]\n!source x\n", "bad.cnf:2: unknown directive !source"},
		"no name":     {"[plrun]\n=1\n", "bad.cnf:2: option \"=1\" has no name"},
		"space name":  {"[plrun]\na b=1\n", "bad.cnf:2: option name \"a b\" holds a space"},
		"loop":        {"[plrun]\n!include self.cnf\n", "self.cnf: includes itself"},
		"dir loop":    {"[plrun]\n!includedir .\n", "bad.cnf: includes itself"},
	} {
		p := write(t, dir, "bad.cnf", tc.text)
		_, err := Read(p, "plrun")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
		if err != nil && !isSyntax(err) {
			t.Errorf("%s: %v is not a SyntaxError", name, err)
		}
	}
	if _, err := Read(filepath.Join(dir, "none.cnf"), "plrun"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"Max_Connections": "max-connections", "loose-tls_cert": "tls-cert", "loose_x": "x"} {
		got, loose := Normalize(in)
		if got != want || loose != strings.HasPrefix(strings.ToLower(in), "loose") {
			t.Errorf("Normalize(%q) = %q, %v", in, got, loose)
		}
	}
}

// FuzzParseOption: no line of an option file panics the reader.
func FuzzParseOption(f *testing.F) {
	for _, s := range []string{"a=1", `x = "a # b" # c`, `e = \`, `q='`, `'\'`, "n", "=", `a=\\\"\'\s\b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		dir := t.TempDir()
		p := filepath.Join(dir, "f.cnf")
		if err := os.WriteFile(p, []byte("[plrun]\n"+line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _ = Read(p, "plrun")
		_, _ = parseOption(line)
	})
}
