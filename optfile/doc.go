// Package optfile reads option files in MySQL's syntax (my.cnf): `[group]`
// headers, `name=value` and `name` alone, `#` and `;` comment lines, a `#`
// comment after a value, values in single or double quotes, MySQL's
// escapes (\n \t \r \b \s \\ \' \"), and the `!include FILE` and
// `!includedir DIR` directives (every *.cnf of DIR, in name order).
//
// It knows nothing of plrun's flags or settings: Read returns the options
// of the groups asked for, in file order, each with the file and line it
// came from, so the caller (server's option loading) can map names onto
// its flag.FlagSet and settings, and name the file:line of a bad one, as
// mysqld does. Names are returned as written, trimmed; Normalize folds `_`
// and `-` and strips MySQL's `loose-` prefix.
//
// The package reads files only; it keeps no state and is safe for
// concurrent use.
package optfile
