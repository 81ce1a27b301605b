package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/optfile"
	"github.com/plrun/plrun/sql/sysvar"
)

// Option files (README "Configuration file"). plrun serve reads the
// [plrun] and [plrun-serve] groups of, in order: the data folder's
// plrun.cnf if present, then --defaults-extra-file; or only
// --defaults-file; or none under --no-defaults. A name that is a flag of
// the FlagSet sets the flag (so every flag registered before loadOptions
// works, whoever added it), any other name is a global setting, as --set
// name=value. MySQL 8's order: compiled default < option file <
// plrun-auto.cnf < command line, so a flag given on the command line is
// never overwritten by a file, and a file's settings are applied by the
// engine before the persisted ones (engine.Config.OptionSettings).

// OptionGroups are the groups plrun serve reads.
var OptionGroups = []string{"plrun", "plrun-serve"}

// DataOptionFile is the option file read from the data folder.
const DataOptionFile = "plrun.cnf"

// The options that choose option files; MySQL takes them only first on
// the command line, before every other option.
const (
	optDefaultsFile  = "defaults-file"
	optDefaultsExtra = "defaults-extra-file"
	optNoDefaults    = "no-defaults"
	optPrintDefaults = "print-defaults"
)

// RegisterOptionFileFlags adds the option-file flags to fs, for --help
// and so that fs.Parse knows them (loadOptions takes them only first).
func RegisterOptionFileFlags(fs *flag.FlagSet) {
	fs.String(optDefaultsFile, "", "read only this option file (must be the first argument, as in MySQL)")
	fs.String(optDefaultsExtra, "", "read this option file after the data folder's plrun.cnf (first argument)")
	fs.Bool(optNoDefaults, false, "read no option file (first argument)")
	fs.Bool(optPrintDefaults, false, "print the options the option files give, and exit (first, or right after the above)")
}

// defaultsChoice is what the leading arguments say about option files.
type defaultsChoice struct {
	file, extra  string
	none, print  bool
	leadingCount int
}

// LeadingDefaults is how many of args are the leading option-file
// arguments (--defaults-file=F, --defaults-extra-file=F, --no-defaults,
// then --print-defaults), which must stay first when other arguments are
// put before the rest (plrun --data X serve --defaults-file=F).
func LeadingDefaults(args []string) int {
	c, _ := leadingDefaults(args)
	return c.leadingCount
}

func leadingDefaults(args []string) (defaultsChoice, error) {
	var c defaultsChoice
	for c.leadingCount < len(args) {
		name, value, hasValue := splitFlag(args[c.leadingCount])
		switch name {
		case optDefaultsFile, optDefaultsExtra:
			if c.print {
				return c, fmt.Errorf("--%s must come before --print-defaults", name)
			}
			if !hasValue {
				if c.leadingCount+1 >= len(args) {
					return c, fmt.Errorf("--%s needs a file name", name)
				}
				c.leadingCount++
				value = args[c.leadingCount]
			}
			if name == optDefaultsFile {
				c.file = value
			} else {
				c.extra = value
			}
		case optNoDefaults:
			c.none = true
		case optPrintDefaults:
			c.print = true
		default:
			return c, nil
		}
		c.leadingCount++
	}
	return c, nil
}

// splitFlag is -name / --name[=value] as Go's flag package reads it;
// name "" for an argument that is no flag.
func splitFlag(a string) (name, value string, hasValue bool) {
	if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
		return "", "", false
	}
	a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	name, value, hasValue = strings.Cut(a, "=")
	return name, value, hasValue
}

// OptionProgram is a command that reads option files: its name for
// messages and the groups it reads.
type OptionProgram struct {
	Name   string
	Groups []string
	// UnknownHint ends the error for an unknown name (where such an
	// option belongs instead).
	UnknownHint string
}

// ServeProgram is plrun serve.
var ServeProgram = OptionProgram{Name: "plrun serve", Groups: OptionGroups}

// DefaultsArgs are the leading option-file arguments of a command line,
// as SplitDefaults found them.
type DefaultsArgs struct {
	choice defaultsChoice
	Raw    []string // the arguments themselves, to hand on to a subcommand
	rest   []string // the command line after them (--print-defaults)
}

// Given reports whether any option-file argument was given.
func (d DefaultsArgs) Given() bool { return len(d.Raw) > 0 }

// SplitDefaults takes the leading option-file arguments off args; the
// rest is for the FlagSet (which must have RegisterOptionFileFlags, so a
// misplaced one is found: Apply refuses it).
func SplitDefaults(args []string) (DefaultsArgs, []string, error) {
	c, err := leadingDefaults(args)
	if err != nil {
		return DefaultsArgs{}, nil, err
	}
	if c.none && (c.file != "" || c.extra != "") {
		return DefaultsArgs{}, nil, errors.New("--no-defaults reads no option file: it cannot be given with --defaults-file or --defaults-extra-file")
	}
	return DefaultsArgs{choice: c, Raw: args[:c.leadingCount], rest: args[c.leadingCount:]}, args[c.leadingCount:], nil
}

// Apply reads the option files d names (or the data folder's plrun.cnf)
// into fs, which has parsed the command line, and returns the files'
// settings for the engine. printed is true when --print-defaults printed
// them: the caller then stops.
func (p OptionProgram) Apply(fs *flag.FlagSet, d DefaultsArgs, stderr io.Writer) (settings []engine.OptionSetting, printed bool, err error) {
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	for _, name := range []string{optDefaultsFile, optDefaultsExtra, optNoDefaults, optPrintDefaults} {
		if explicit[name] {
			return nil, false, fmt.Errorf("--%s must be the first argument of %s, as in MySQL", name, p.Name)
		}
	}
	files, err := optionFiles(fs, d.choice, explicit, p.Groups)
	if err != nil {
		return nil, false, err
	}
	if d.choice.print {
		// what the files say, checked or not, as MySQL prints it
		printDefaults(printOut, p.Name, files, d.rest)
		return nil, true, nil
	}
	l := &optionLoader{fs: fs, explicit: explicit, stderr: stderr, program: p.Name, hint: p.UnknownHint}
	for _, f := range files {
		for _, o := range f.opts {
			if err := l.apply(o, f.source); err != nil {
				return nil, false, fmt.Errorf("%s: %w", o.Pos(), err)
			}
		}
	}
	return l.settings, false, nil
}

// loadOptions is the command line and option files of plrun serve.
func loadOptions(fs *flag.FlagSet, args []string, stderr io.Writer) (settings []engine.OptionSetting, printed bool, err error) {
	d, rest, err := SplitDefaults(args)
	if err != nil {
		return nil, false, err
	}
	if err := fs.Parse(rest); err != nil {
		return nil, false, err
	}
	return ServeProgram.Apply(fs, d, stderr)
}

// optionFile is one file read, with its options and MySQL's name for
// where it came from.
type optionFile struct {
	path   string
	source sysvar.Source
	opts   []optfile.Option
}

// optionFiles reads the files choice names, in the order they apply. The
// data folder comes from the command line, else from the file that
// names it (--defaults-file or --defaults-extra-file).
func optionFiles(fs *flag.FlagSet, choice defaultsChoice, explicit map[string]bool, groups []string) ([]optionFile, error) {
	if choice.none {
		return nil, nil
	}
	read := func(path string, source sysvar.Source) (optionFile, error) {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		opts, err := optfile.Read(path, groups...)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return optionFile{}, fmt.Errorf("could not open required defaults file: %s", path)
			}
			return optionFile{}, err
		}
		return optionFile{path: path, source: source, opts: opts}, nil
	}
	if choice.file != "" {
		f, err := read(choice.file, sysvar.SourceExplicit)
		return []optionFile{f}, err
	}
	var extra *optionFile
	if choice.extra != "" {
		f, err := read(choice.extra, sysvar.SourceExtra)
		if err != nil {
			return nil, err
		}
		extra = &f
	}
	// the data folder: the command line's, else the extra file's, else
	// the flag's default (the REPL's ./plrun-data)
	dataDir := ""
	if f := fs.Lookup("data"); f != nil {
		dataDir = f.Value.String()
	}
	if extra != nil && !explicit["data"] {
		for _, o := range extra.opts {
			if n, _ := optfile.Normalize(o.Name); n == "data" {
				dataDir = o.Value
			}
		}
	}
	var files []optionFile
	if dataDir != "" {
		path := filepath.Join(dataDir, DataOptionFile)
		if _, err := os.Stat(path); err == nil {
			f, err := read(path, sysvar.SourceGlobal)
			if err != nil {
				return nil, err
			}
			for _, o := range f.opts {
				if n, _ := optfile.Normalize(o.Name); n == "data" {
					return nil, fmt.Errorf("%s: data cannot be set in the data folder's own %s", o.Pos(), DataOptionFile)
				}
			}
			files = append(files, f)
		}
	}
	if extra != nil {
		files = append(files, *extra)
	}
	return files, nil
}

// printOut is where --print-defaults prints (a test replaces it).
var printOut io.Writer = os.Stdout

// optionLoader maps one file's options onto the flags and settings.
type optionLoader struct {
	fs       *flag.FlagSet
	explicit map[string]bool // flags given on the command line: they win
	stderr   io.Writer
	program  string
	hint     string
	settings []engine.OptionSetting
}

// flagSettings are flags whose value is a global setting: from a file
// they rank below plrun-auto.cnf, as the setting would.
var flagSettings = map[string]string{"workers": "plrun_workers"}

func (l *optionLoader) apply(o optfile.Option, source sysvar.Source) error {
	name, loose := optfile.Normalize(o.Name)
	setting := func(n, v string) {
		l.settings = append(l.settings, engine.OptionSetting{Name: n, Value: v, Source: source, Path: o.File, Line: o.Line})
	}
	switch name {
	case optDefaultsFile, optDefaultsExtra, optNoDefaults, optPrintDefaults:
		return fmt.Errorf("--%s is taken on the command line only", name)
	}
	if f := l.fs.Lookup(name); f != nil {
		value := o.Value
		if !o.HasValue {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				return fmt.Errorf("option '--%s' requires an argument", name)
			}
			value = "true"
		}
		if l.explicit[name] {
			return nil // the command line wins
		}
		switch {
		case name == "set":
			n, v, ok := strings.Cut(value, "=")
			if !ok || strings.TrimSpace(n) == "" {
				return fmt.Errorf("set: want name=value, got %q", value)
			}
			setting(strings.TrimSpace(n), strings.TrimSpace(v))
			return nil
		case flagSettings[name] != "":
			setting(flagSettings[name], value)
			return nil
		}
		if err := l.fs.Set(name, value); err != nil {
			return fmt.Errorf("--%s: %v", name, err)
		}
		return nil
	}
	varName := strings.ReplaceAll(name, "-", "_")
	if d, err := sysvar.Lookup(varName); err == nil {
		value := o.Value
		if !o.HasValue {
			if d.Kind != sysvar.KindBool {
				return fmt.Errorf("option '%s' requires an argument", varName)
			}
			value = "ON"
		}
		setting(d.Name, value)
		return nil
	}
	text := o.Name
	if o.HasValue {
		text += "=" + o.Value
	}
	if loose {
		fmt.Fprintf(l.stderr, "%s: [Warning] %s: unknown option '%s' ignored (loose- prefix)\n", l.program, o.Pos(), text)
		return nil
	}
	return fmt.Errorf("unknown variable '%s' (neither a flag of %s nor a setting%s; prefix it loose- to only warn)", text, l.program, l.hint)
}

// printDefaults is --print-defaults: the options read from the files, one
// per line as my_print_defaults prints them, then the command line's
// arguments.
func printDefaults(w io.Writer, program string, files []optionFile, rest []string) {
	fmt.Fprintf(w, "%s would have been started with the following arguments:\n", program)
	for _, f := range files {
		for _, o := range f.opts {
			if o.HasValue {
				fmt.Fprintf(w, "--%s=%s\n", o.Name, o.Value)
			} else {
				fmt.Fprintf(w, "--%s\n", o.Name)
			}
		}
	}
	for _, a := range rest {
		fmt.Fprintln(w, a)
	}
}
