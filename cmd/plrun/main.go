package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/internal/cmalloc"
	"github.com/plrun/plrun/server"

	"github.com/plrun/plrun"
)

func main() {
	// Two malloc arenas for pebble's C memory (internal/cmalloc: a dozen
	// arenas held 260 MiB more at 10M rows).
	cmalloc.Limit(2)
	stop := startProfiles(os.Stderr)
	status := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(status)
}

// settingsFlag collects repeated --set name=value flags.
type settingsFlag map[string]string

func (s settingsFlag) String() string { return "" }

func (s settingsFlag) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want name=value, got %q", v)
	}
	s[strings.ToLower(strings.TrimSpace(name))] = strings.TrimSpace(value)
	return nil
}

// run is plrun's whole command line; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plrun", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "./plrun-data", "data directory")
	procsDir := fs.String("procs", "", "folder of *.lua / *.js procedure files to load (CREATE OR REPLACE) at start")
	execute := fs.String("e", "", "run these statements in batch mode and exit")
	workers := fs.Int("workers", 0, "worker pool size (plrun_workers; 0 = default)")
	interactive := fs.Bool("i", false, "REPL output (prompts, tables, timings) even when standard input is not a terminal")
	batch := fs.Bool("B", false, "batch output (tab-separated, no prompts) even on a terminal")
	settings := settingsFlag{}
	fs.Var(settings, "set", "set a global variable at open, as SET GLOBAL name = value (repeatable)")
	showVersion := fs.Bool("version", false, "print plrun's version and exit")
	opts := &clientOptions{}
	opts.register(fs)
	fs.Usage = func() {} // --help prints to stdout below; a bad flag gets a hint
	server.RegisterOptionFileFlags(fs)
	defaults, args, err := server.SplitDefaults(args)
	if err != nil {
		fmt.Fprintf(stderr, "plrun: %v\n", err)
		return 2
	}
	if err := fs.Parse(expandShortFlags(args, "fNtEsiBA")); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			usage(fs)
			return 0
		}
		fmt.Fprintln(stderr, "Try plrun --help.")
		return 2
	}
	if *showVersion {
		return printVersion(stdout)
	}
	if err := opts.validate(); err != nil {
		fmt.Fprintf(stderr, "plrun: %v\n", err)
		return 2
	}
	if cmd := fs.Arg(0); cmd != "" && cmd != "serve" && defaults.Given() {
		fmt.Fprintf(stderr, "plrun: %s reads no option file (%s is for the REPL, scripts and serve)\n", cmd, defaults.Raw[0])
		return 2
	}
	var optionSettings []engine.OptionSetting
	if fs.Arg(0) == "" {
		var printed bool
		optionSettings, printed, err = replProgram.Apply(fs, defaults, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "plrun: %v\n", err)
			return 2
		}
		if printed {
			return 0
		}
	}
	switch cmd := fs.Arg(0); cmd {
	case "":
	case "bench":
		return benchMain(fs.Args()[1:], stdout, stderr)
	case "serve":
		return serveMain(append(append([]string{}, defaults.Raw...), serveArgs(globalServeFlags(fs), fs.Args()[1:])...), stderr)
	case "recover":
		return recoverMain(fs.Args()[1:], *dataDir, stdout, stderr)
	case "dump":
		return dumpMain(fs.Args()[1:], *dataDir, stdout, stderr)
	case "help":
		fs.SetOutput(stdout)
		usage(fs)
		return 0
	case "version":
		return printVersion(stdout)
	default:
		fmt.Fprintf(stderr, "plrun: unknown command %q (try plrun --help)\n", cmd)
		return 2
	}

	tty := isTerminal(stdin) && !*batch && !isSet(fs, "e")
	repl := tty || *interactive
	created, err := prepareDataDir(*dataDir, opts.create || tty)
	if err != nil {
		fmt.Fprintf(stderr, "plrun: %v\n", err)
		return 1
	}
	// The REPL's error log is what needs the user's eye: a torn tail cut
	// at open, a failed checkpoint (warnings and errors, on stderr).
	errorLog := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := plrun.Open(*dataDir, &plrun.Options{Settings: settings, OptionSettings: optionSettings, ProcsDir: *procsDir, Workers: *workers, Logger: errorLog})
	if err != nil {
		msg := openErrorLine(*dataDir, err)
		if errors.Is(err, engine.ErrDataDirInUse) {
			if h := lockHolder(*dataDir); h != "" {
				msg += "; " + h
			}
		}
		fmt.Fprintf(stderr, "plrun: %s\n", msg)
		return 1
	}
	sh := &shell{sess: db.Session(), out: &output{stdout: stdout}, stderr: stderr, opts: opts,
		dataDir: *dataDir, started: time.Now(), run: &runState{}}
	if created && repl {
		sh.out.echo(fmt.Sprintf("Created a new database at %s.\n", *dataDir))
	}
	status := 0
	switch {
	case isSet(fs, "e"):
		sh.printer, sh.script = opts.printer(false), true
		if !sh.runScript(context.Background(), plainLines(strings.NewReader(*execute), nil)) {
			status = 1
		}
	default:
		status = sh.runInput(stdin, *dataDir, *interactive, *batch)
	}
	sh.out.closeTee()
	sh.sess.Close()
	if err := db.Close(); err != nil {
		fmt.Fprintf(stderr, "plrun: close: %v\n", err)
		status = 1
	}
	return status
}

// globalServeFlags passes the global flags that serve also takes (plrun
// --data X serve means plrun serve --data X).
func globalServeFlags(fs *flag.FlagSet) []string {
	var out []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "data", "procs", "workers":
			out = append(out, "--"+f.Name, f.Value.String())
		case "set":
			for name, v := range f.Value.(settingsFlag) {
				out = append(out, "--set", name+"="+v)
			}
		}
	})
	return out
}

// replProgram is the REPL's and batch mode's reading of option files:
// [plrun] (settings, and the flags it shares with serve: data, procs,
// workers, set) and [plrun-client] (the client's own: format, force...).
var replProgram = server.OptionProgram{Name: "plrun", Groups: []string{"plrun", "plrun-client"},
	UnknownHint: "; plrun serve's own flags go in [plrun-serve]"}

// serveArgs puts the global flags before serve's own, after its leading
// option-file arguments, which MySQL takes only first (--defaults-file).
func serveArgs(global, args []string) []string {
	n := server.LeadingDefaults(args)
	out := append(append([]string{}, args[:n]...), global...)
	return append(out, args[n:]...)
}

// printer is the output format the options ask for, in a REPL or not.
func (o *clientOptions) printer(repl bool) *printer {
	p := &printer{format: o.format, interactive: repl, skipNames: o.skipNames}
	if p.format == "" {
		switch {
		case o.vertical:
			p.format = "vertical"
		case o.silent:
			p.format = "tsv"
			p.skipNames = p.skipNames || !repl
		case repl || o.table:
			p.format = "table"
		default:
			p.format = "tsv"
		}
	}
	return p
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// runInput runs standard input: a REPL on a terminal (or with -i), else a
// batch script.
func (sh *shell) runInput(stdin io.Reader, dataDir string, forceREPL, forceBatch bool) int {
	tty := isTerminal(stdin) && !forceBatch
	if !tty && !forceREPL {
		sh.printer, sh.script = sh.opts.printer(false), true
		if !sh.runScript(context.Background(), plainLines(stdin, nil)) {
			return 1
		}
		return 0
	}
	sh.printer = sh.opts.printer(true)
	sh.interactive = true
	sh.script = !tty // piped into a REPL (-i): a last statement without ';' still runs
	var lines lineReader
	if tty {
		rl, err := terminalLines(stdin, sh.out.stdout, sh.stderr, historyPath(dataDir),
			&completer{sess: sh.sess, keywords: sh.opts.noAutoRehash})
		if err != nil {
			fmt.Fprintf(sh.stderr, "plrun: %v\n", err)
			return 1
		}
		lines = rl
		sh.history = rl.saveHistory
		stopSignals := sh.cancelOnInterrupt()
		defer stopSignals()
	} else {
		lines = plainLines(stdin, sh.out.stdout) // prompts and the echoed input make a transcript
	}
	defer lines.Close()
	sh.out.echo(fmt.Sprintf("Welcome to plrun (data: %s). Statements end with ';'; procedure bodies go in $$ ... $$.\n", dataDir))
	sh.out.echo("Type 'help' for help, 'exit' or Ctrl-D to leave.\n\n")
	sh.runScript(context.Background(), lines)
	sh.out.echo("Bye\n")
	return 0
}
