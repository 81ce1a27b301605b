package parse

import "testing"

func TestScopedPersist(t *testing.T) {
	for q, want := range map[string]bool{
		"SET @@persist.x = 1":                           false,
		"SET @@PERSIST_ONLY.x = 1":                      false,
		"SET @@session.persist.x = 1":                   true,
		"SET @@LOCAL.Persist_Only.x = 1":                true,
		"SET @@session.persistent_thing = 1":            false, // a name that starts with "persist"
		"SET @a = '@@session.persist.x'":                false,
		`SET @a = "@@local.persist.x"`:                  false,
		"SET @a = 1 /* @@session.persist.x */":          false,
		"SET @a = 1 -- @@session.persist.x\n":           false,
		"SET @a = 1 # @@session.persist.x":              false,
		"SET @`@@session.persist.x` = 1":                false,
		"SET @@persist.a = 1, @@session.persist.b = 2":  true,
		"SET @a = 'it''s', @@session.persist.b = 2":     true,
		"SET @a = 'unterminated, @@session.persist.b=2": false,
	} {
		if got := ScopedPersist(q); got != want {
			t.Errorf("ScopedPersist(%q) = %v, want %v", q, got, want)
		}
	}
}
