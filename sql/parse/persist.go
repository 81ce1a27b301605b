package parse

import "strings"

// ScopedPersist reports whether statement s names a variable as
// `@@session.persist.x` or `@@local.persist_only.x`: the TiDB parser drops
// the scope and reads "persist.x" as for `@@persist.x`, which MySQL takes
// in SET while it refuses the scoped form (1272). Tokens are read as SQL
// (sqlTokens), so text in strings, quoted identifiers and comments never
// counts.
func ScopedPersist(s string) bool {
	toks, _ := sqlTokens(s)
	for _, t := range toks {
		w := strings.ToLower(t.text)
		for _, scope := range []string{"@@session.", "@@local."} {
			rest, ok := strings.CutPrefix(w, scope)
			if ok && (strings.HasPrefix(rest, "persist.") || strings.HasPrefix(rest, "persist_only.")) {
				return true
			}
		}
	}
	return false
}
