package procs

import "strings"

// LanguageSQL is a body in SQL: a SQL/PSM procedure (sql/psm; the
// default when CREATE PROCEDURE has no LANGUAGE clause, as in MySQL), or a
// stored function's RETURN expr, or (once SQL/PSM function bodies are
// wired) BEGIN ... RETURN ...; END. The sql layer compiles function
// bodies; procs only stores them.
const LanguageSQL = "SQL"

// FunctionDef is what a stored function adds to a Definition. A
// Definition whose Func is nil is a procedure.
type FunctionDef struct {
	// Returns is the RETURNS type as written, normalised like a parameter
	// type ("INT", "DECIMAL(12,2)", "VARCHAR(20) CHARSET UTF8MB4").
	Returns string
	// SQLMode is sql_mode when the function was created: its return value
	// is converted under it, as MariaDB does (arguments under the caller's).
	SQLMode string
	// Characteristics as written, in order and normalised: "DETERMINISTIC",
	// "NO SQL", "READS SQL DATA", "COMMENT 'x'", "SQL SECURITY INVOKER", ...
	Characteristics []string
	Comment         string
}

// IsFunction reports whether def is a stored function.
func (def *Definition) IsFunction() bool { return def.Func != nil }

// NoSQL reports whether the function was declared NO SQL: its body may
// not call the session.
func (f *FunctionDef) NoSQL() bool {
	for _, c := range f.Characteristics {
		if c == "NO SQL" {
			return true
		}
	}
	return false
}

// Deterministic reports whether DETERMINISTIC was declared (and not
// overridden by a later NOT DETERMINISTIC).
func (f *FunctionDef) Deterministic() bool {
	det := false
	for _, c := range f.Characteristics {
		switch c {
		case "DETERMINISTIC":
			det = true
		case "NOT DETERMINISTIC":
			det = false
		}
	}
	return det
}

// SecurityType is DEFINER or INVOKER (SHOW FUNCTION STATUS).
func (f *FunctionDef) SecurityType() string {
	t := "DEFINER"
	for _, c := range f.Characteristics {
		if rest, ok := strings.CutPrefix(c, "SQL SECURITY "); ok {
			t = rest
		}
	}
	return t
}
