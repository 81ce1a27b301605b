package expr

import (
	"strings"
	"unicode/utf8"
)

// likeToken is one element of a LIKE pattern: a literal character, _ (any
// one character) or % (any run of characters).
type likeToken struct {
	r        rune
	any, run bool
}

// likeTokens splits a (lower-cased) pattern; esc is the ESCAPE character
// (0: none), whose next character is literal. A trailing escape character
// is itself literal, as in MySQL.
func likeTokens(p string, esc rune) []likeToken {
	out := make([]likeToken, 0, len(p))
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		i += n
		switch {
		case esc != 0 && r == esc && i < len(p):
			r, n = utf8.DecodeRuneInString(p[i:])
			i += n
			out = append(out, likeToken{r: r})
		case r == '%':
			if len(out) == 0 || !out[len(out)-1].run {
				out = append(out, likeToken{run: true})
			}
		case r == '_':
			out = append(out, likeToken{any: true})
		default:
			out = append(out, likeToken{r: r})
		}
	}
	return out
}

// likeMatchEscape implements SQL LIKE (case-insensitive, as
// utf8mb4_general_ci compares) with esc as the escape character. It is
// the greedy matcher with one backtrack point (the last %), so a pattern
// of many %s costs O(len(pattern) * len(s)), never exponential time: a
// hostile LIKE cannot hold a worker past its statement's cancellation.
func likeMatchEscape(pattern, s string, esc rune) bool {
	p := likeTokens(strings.ToLower(pattern), esc)
	str := []rune(strings.ToLower(s))
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(str) {
		switch {
		case pi < len(p) && p[pi].run:
			star, mark = pi, si
			pi++
		case pi < len(p) && (p[pi].any || p[pi].r == str[si]):
			pi++
			si++
		case star >= 0:
			mark++
			pi, si = star+1, mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi].run {
		pi++
	}
	return pi == len(p)
}

// LikeMatch implements SQL LIKE with % and _ (case-insensitive) and \ escapes.
func LikeMatch(pattern, s string) bool { return likeMatchEscape(pattern, s, '\\') }

// LikeMatchEscape is LIKE with esc as the escape character (JSON_SEARCH).
func LikeMatchEscape(pattern, s string, esc rune) bool { return likeMatchEscape(pattern, s, esc) }
