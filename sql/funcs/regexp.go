package funcs

import (
	"errors"
	"github.com/plrun/plrun/sql/expr"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// MariaDB's REGEXP is PCRE; plrun's is Go's RE2, the same for what both
// have (classes, [[:alpha:]], \d, anchors, alternation, counted repeats,
// (?i) flags). What only PCRE has (backreferences such as \1, lookahead
// and lookbehind, atomic groups, possessive quantifiers) does not compile
// in RE2, and is refused with MariaDB's error 1139, never mis-evaluated.
// Matching is case-insensitive, as the default collation makes it.

// regexCache keeps the patterns compiled per row (a pattern from a
// column or parameter): one compile per distinct text.
var regexCache sync.Map // string -> *regexp.Regexp

const regexCacheMax = 1024

var regexCacheLen int64
var regexCacheMu sync.Mutex

func compileRegex(pattern string) (*regexp.Regexp, error) {
	if re, ok := regexCache.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		msg := err.Error()
		var e *syntax.Error
		if errors.As(err, &e) {
			msg = string(e.Code)
			if e.Code == "invalid escape sequence" && len(e.Expr) == 2 && e.Expr[1] >= '1' && e.Expr[1] <= '9' {
				msg = "backreference " + e.Expr + " is not supported (plrun's regexp is RE2)"
			} else if e.Code == "invalid or unsupported Perl syntax" {
				msg = "unsupported Perl syntax " + e.Expr + " (plrun's regexp is RE2)"
			}
		}
		return nil, sqlerr.New(sqlerr.ErRegexp, "Regex error '%s'", msg)
	}
	regexCacheMu.Lock()
	if regexCacheLen < regexCacheMax {
		regexCache.Store(pattern, re)
		regexCacheLen++
	}
	regexCacheMu.Unlock()
	return re, nil
}

// patternOf compiles a constant pattern once, at compile time; a
// pattern that varies is compiled (and cached) as rows come.
func patternOf(p *expr.Expr) (func(v types.Value) (*regexp.Regexp, error), error) {
	if v, ok := p.Literal(); ok {
		if !v.IsNull() {
			re, err := compileRegex(v.String())
			if err != nil {
				return nil, err
			}
			return func(types.Value) (*regexp.Regexp, error) { return re, nil }, nil
		}
	}
	return func(v types.Value) (*regexp.Regexp, error) { return compileRegex(v.String()) }, nil
}

// regexpOp is s [NOT] REGEXP|RLIKE pattern (expr.RegexpOp).
func regexpOp(s, p *expr.Expr, not bool) (*expr.Expr, error) {
	pat, err := patternOf(p)
	if err != nil {
		return nil, err
	}
	return expr.Derived(func(c *expr.Ctx) (types.Value, error) {
		sv, err := s.Fn(c)
		if err != nil {
			return types.Null, err
		}
		pv, err := p.Fn(c)
		if err != nil || sv.IsNull() || pv.IsNull() {
			return types.Null, err
		}
		re, err := pat(pv)
		if err != nil {
			return types.Null, err
		}
		return expr.BoolValue(re.MatchString(sv.String()) != not), nil
	}, expr.TBool, s, p), nil
}

// regexpFunc compiles REGEXP_REPLACE, REGEXP_SUBSTR and REGEXP_INSTR
// (MariaDB has no REGEXP_LIKE: its name stays a stored function's).
func regexpFunc(f *expr.Call) (*expr.Expr, error) {
	var want int
	switch f.Name {
	case "regexp_replace":
		want = 3
	case "regexp_substr", "regexp_instr":
		want = 2
	default:
		return nil, nil
	}
	if err := f.NArgs(want, want); err != nil {
		return nil, err
	}
	pat, err := patternOf(f.Args[1])
	if err != nil {
		return nil, err
	}
	t := expr.TVarchar
	if f.Name == "regexp_instr" {
		t = expr.TBigInt
	}
	name := f.Name
	return f.Mk(t, func(c *expr.Ctx, vs []types.Value) (types.Value, error) {
		if expr.AnyNull(vs) {
			return types.Null, nil
		}
		re, err := pat(vs[1])
		if err != nil {
			return types.Null, err
		}
		s := vs[0].String()
		switch name {
		case "regexp_replace":
			return types.StringValue(re.ReplaceAllString(s, goReplacement(vs[2].String()))), nil
		case "regexp_substr":
			return types.StringValue(re.FindString(s)), nil
		}
		loc := re.FindStringIndex(s)
		if loc == nil {
			return types.IntValue(0), nil
		}
		return types.IntValue(int64(utf8.RuneCountInString(s[:loc[0]]) + 1)), nil
	}), nil
}

// goReplacement turns PCRE's replacement text (\1 is group 1) into Go's
// (${1}; a literal $ is $$).
func goReplacement(r string) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		switch {
		case r[i] == '$':
			b.WriteString("$$")
		case r[i] == '\\' && i+1 < len(r) && r[i+1] >= '0' && r[i+1] <= '9':
			b.WriteString("${" + string(r[i+1]) + "}")
			i++
		case r[i] == '\\' && i+1 < len(r):
			b.WriteByte(r[i+1])
			i++
		default:
			b.WriteByte(r[i])
		}
	}
	return b.String()
}
