package main

import (
	"flag"
	"fmt"
	"strings"
)

// clientOptions are the mysql client's output and error-handling flags.
type clientOptions struct {
	force        bool   // -f: go on after an error
	skipNames    bool   // -N: no column names
	table        bool   // -t: boxed tables in batch mode too
	vertical     bool   // -E: every result vertically
	silent       bool   // -s: tab-separated, no column names in batch mode
	abortSource  bool   // --abort-source-on-error
	format       string // --format table|tsv|csv|json|vertical
	create       bool   // --create: make a new database at --data
	noAutoRehash bool   // -A: no table/column names in tab completion
}

// outputFormats are the values --format takes.
var outputFormats = []string{"table", "tsv", "csv", "json", "vertical"}

func (o *clientOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.force, "f", false, "go on after an error in a script (mysql --force)")
	fs.BoolVar(&o.force, "force", false, "same as -f")
	fs.BoolVar(&o.skipNames, "N", false, "print no column names (mysql --skip-column-names)")
	fs.BoolVar(&o.skipNames, "skip-column-names", false, "same as -N")
	fs.BoolVar(&o.table, "t", false, "boxed table output in batch mode too (mysql --table)")
	fs.BoolVar(&o.table, "table", false, "same as -t")
	fs.BoolVar(&o.vertical, "E", false, "print every result vertically, as \\G does (mysql --vertical)")
	fs.BoolVar(&o.vertical, "vertical", false, "same as -E")
	fs.BoolVar(&o.silent, "s", false, "tab-separated output; in batch mode without column names (mysql --silent)")
	fs.BoolVar(&o.silent, "silent", false, "same as -s")
	fs.BoolVar(&o.abortSource, "abort-source-on-error", false, "stop a `source FILE` at its first error (by default it goes on, as mysql's)")
	fs.StringVar(&o.format, "format", "", "output format: "+strings.Join(outputFormats, "|")+" (default: table on a terminal, tsv otherwise)")
	fs.BoolVar(&o.create, "create", false, "create a new database at --data if there is none (the REPL on a terminal asks for no flag)")
	fs.BoolVar(&o.noAutoRehash, "A", false, "complete only keywords on Tab, not table and column names (mysql --no-auto-rehash)")
}

func (o *clientOptions) validate() error {
	if o.format == "" {
		return nil
	}
	for _, f := range outputFormats {
		if o.format == f {
			return nil
		}
	}
	return fmt.Errorf("--format %q: want one of %s", o.format, strings.Join(outputFormats, ", "))
}

// expandShortFlags splits bundled one-letter flags as mysql users type
// them (-sN, -Bf) into separate flags for Go's flag package. Only bundles
// of known one-letter boolean flags are split.
func expandShortFlags(args []string, boolLetters string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" || isSubcommand(a) {
			return append(out, args[i:]...) // a subcommand parses its own flags
		}
		bundle, ok := strings.CutPrefix(a, "-")
		if !ok || strings.HasPrefix(bundle, "-") || len(bundle) < 2 || strings.Trim(bundle, boolLetters) != "" {
			out = append(out, a)
			continue
		}
		for _, c := range bundle {
			out = append(out, "-"+string(c))
		}
	}
	return out
}

func isSubcommand(a string) bool {
	switch a {
	case "bench", "serve", "recover", "help", "version":
		return true
	}
	return false
}
