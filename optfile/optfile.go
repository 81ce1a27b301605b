package optfile

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Option is one `name[=value]` line of a group that was asked for.
type Option struct {
	Name     string // as written, trimmed (see Normalize)
	Value    string // unquoted and unescaped
	HasValue bool   // false for a bare `name` (a boolean switched on)
	File     string // the file it was read from (an included one if so)
	Line     int
}

// Pos is "file:line", as error messages name an option.
func (o Option) Pos() string { return fmt.Sprintf("%s:%d", o.File, o.Line) }

// SyntaxError is an error about a file's content (as opposed to reading
// it): "file:line: what".
type SyntaxError struct{ Msg string }

func (e *SyntaxError) Error() string { return e.Msg }

func syntaxError(format string, a ...any) error { return &SyntaxError{Msg: fmt.Sprintf(format, a...)} }

func isSyntax(err error) bool {
	var se *SyntaxError
	return errors.As(err, &se)
}

// maxIncludeDepth bounds !include chains, so a file that includes itself
// is an error rather than a stack overflow.
const maxIncludeDepth = 10

// Read reads path and the files it includes, and returns the options of
// the named groups (case-insensitive), in order. A missing path is an
// error; the caller checks for optional files first.
func Read(path string, groups ...string) ([]Option, error) {
	r := &reader{groups: map[string]bool{}, open: map[string]bool{}}
	for _, g := range groups {
		r.groups[strings.ToLower(g)] = true
	}
	if err := r.file(path, 0); err != nil {
		return nil, err
	}
	return r.opts, nil
}

type reader struct {
	groups map[string]bool
	opts   []Option
	open   map[string]bool // the files being read, outermost first: a cycle is an error
}

func (r *reader) file(path string, depth int) error {
	if depth > maxIncludeDepth {
		return syntaxError("%s: includes nested more than %d deep", path, maxIncludeDepth)
	}
	key := filepath.Clean(path)
	if r.open[key] {
		return syntaxError("%s: includes itself", path)
	}
	r.open[key] = true
	defer delete(r.open, key)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	inGroup, seenGroup := false, false
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		bad := func(format string, a ...any) error {
			return syntaxError("%s:%d: %s", path, line, fmt.Sprintf(format, a...))
		}
		switch {
		case text == "" || text[0] == '#' || text[0] == ';':
			continue
		case text[0] == '!':
			if err := r.directive(path, text, depth, bad); err != nil {
				return err
			}
			continue
		case text[0] == '[':
			end := strings.IndexByte(text, ']')
			if end < 0 {
				return bad("wrong group definition %q: no ']'", text)
			}
			if rest := strings.TrimSpace(text[end+1:]); rest != "" && rest[0] != '#' && rest[0] != ';' {
				return bad("wrong group definition %q: text after ']'", text)
			}
			name := strings.ToLower(strings.TrimSpace(text[1:end]))
			inGroup, seenGroup = r.groups[name], true
			continue
		}
		if !seenGroup {
			return bad("found option without preceding group")
		}
		if !inGroup {
			continue
		}
		opt, err := parseOption(text)
		if err != nil {
			return bad("%v", err)
		}
		opt.File, opt.Line = path, line
		r.opts = append(r.opts, opt)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}

// directive is !include FILE or !includedir DIR. A relative name is taken
// from the including file's folder.
func (r *reader) directive(path, text string, depth int, bad func(string, ...any) error) error {
	word, arg, _ := strings.Cut(removeEndComment(text[1:]), " ")
	if i := strings.IndexByte(word, '\t'); i >= 0 {
		word, arg = word[:i], word[i+1:]+" "+arg
	}
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return bad("!%s needs a file or folder name", word)
	}
	if !filepath.IsAbs(arg) {
		arg = filepath.Join(filepath.Dir(path), arg)
	}
	switch strings.ToLower(word) {
	case "include":
		if err := r.file(arg, depth+1); err != nil {
			if isSyntax(err) {
				return err
			}
			return bad("!include %s: %v", arg, err)
		}
		return nil
	case "includedir":
		entries, err := os.ReadDir(arg)
		if err != nil {
			return bad("!includedir %s: %v", arg, err)
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".cnf") {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			if err := r.file(filepath.Join(arg, n), depth+1); err != nil {
				if isSyntax(err) {
					return err
				}
				return bad("!includedir %s: %v", arg, err)
			}
		}
		return nil
	}
	return bad("unknown directive !%s (want !include or !includedir)", word)
}

// parseOption reads `name`, `name = value`, `name = "value" # comment`.
func parseOption(text string) (Option, error) {
	text = removeEndComment(text)
	name, value, hasValue := strings.Cut(text, "=")
	name = strings.TrimSpace(name)
	if name == "" {
		return Option{}, fmt.Errorf("option %q has no name", text)
	}
	if strings.ContainsAny(name, " \t") {
		return Option{}, fmt.Errorf("option name %q holds a space", name)
	}
	if !hasValue {
		return Option{Name: name}, nil
	}
	return Option{Name: name, Value: unescape(unquote(strings.TrimSpace(value))), HasValue: true}, nil
}

// removeEndComment cuts a `#` comment that is outside quotes, as MySQL's
// my_default.cc does (a backslash inside quotes protects a quote).
func removeEndComment(s string) string {
	var quote byte
	escape := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c == '\'' || c == '"') && !escape {
			switch quote {
			case 0:
				quote = c
			case c:
				quote = 0
			}
		}
		if quote == 0 && c == '#' {
			return strings.TrimSpace(s[:i])
		}
		escape = quote != 0 && c == '\\' && !escape
	}
	return s
}

// unquote drops one pair of matching quotes around the whole value.
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// unescape applies MySQL's option-file escapes; a backslash before any
// other character is kept with it, as MySQL keeps it (Windows paths).
func unescape(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' || i == len(v)-1 {
			b.WriteByte(v[i])
			continue
		}
		i++
		switch v[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 's':
			b.WriteByte(' ')
		case '"', '\'', '\\':
			b.WriteByte(v[i])
		default:
			b.WriteByte('\\')
			b.WriteByte(v[i])
		}
	}
	return b.String()
}

// Normalize is an option name as plrun matches it: lower case, `_` as
// `-`, without MySQL's `loose-` prefix (loose reports whether it had one:
// an unknown loose option is a warning, not an error).
func Normalize(name string) (norm string, loose bool) {
	norm = strings.ReplaceAll(strings.ToLower(name), "_", "-")
	if rest, ok := strings.CutPrefix(norm, "loose-"); ok {
		return rest, true
	}
	return norm, false
}
