package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/plrun/plrun"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
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
	dataDir := fs.String("data", "./plrun-data", "data directory (created if missing)")
	procsDir := fs.String("procs", "", "folder of *.lua / *.js procedure files to load (CREATE OR REPLACE) at start")
	execute := fs.String("e", "", "run these statements in batch mode and exit")
	workers := fs.Int("workers", 0, "worker pool size (plrun_workers; 0 = default)")
	interactive := fs.Bool("i", false, "REPL output (prompts, tables, timings) even when standard input is not a terminal")
	batch := fs.Bool("B", false, "batch output (tab-separated, no prompts) even on a terminal")
	settings := settingsFlag{}
	fs.Var(settings, "set", "set a global variable at open, as SET GLOBAL name = value (repeatable)")
	fs.Usage = func() { usage(fs) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	switch cmd := fs.Arg(0); cmd {
	case "":
	case "bench":
		return benchMain(fs.Args()[1:], stdout, stderr)
	case "serve":
		return serveMain(fs.Args()[1:], stderr)
	case "recover":
		return recoverMain(fs.Args()[1:], *dataDir, stdout, stderr)
	case "help":
		fs.SetOutput(stdout)
		usage(fs)
		return 0
	default:
		fmt.Fprintf(stderr, "plrun: unknown command %q (try plrun --help)\n", cmd)
		return 2
	}

	if err := os.MkdirAll(*dataDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "plrun: %v\n", err)
		return 1
	}
	db, err := plrun.Open(*dataDir, &plrun.Options{Settings: settings, ProcsDir: *procsDir, Workers: *workers})
	if err != nil {
		fmt.Fprintf(stderr, "plrun: open %s: %v\n", *dataDir, err)
		return 1
	}
	sh := &shell{sess: db.Session(), stdout: stdout, stderr: stderr, run: &runState{}}
	status := 0
	switch {
	case isSet(fs, "e"):
		sh.printer, sh.script = batchPrinter{w: stdout}, true
		if !sh.runScript(context.Background(), plainLines(strings.NewReader(*execute), nil)) {
			status = 1
		}
	default:
		status = sh.runInput(stdin, *dataDir, *interactive, *batch)
	}
	sh.sess.Close()
	if err := db.Close(); err != nil {
		fmt.Fprintf(stderr, "plrun: close: %v\n", err)
		status = 1
	}
	return status
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
		sh.printer, sh.script = batchPrinter{w: sh.stdout}, true
		if !sh.runScript(context.Background(), plainLines(stdin, nil)) {
			return 1
		}
		return 0
	}
	sh.printer = &tablePrinter{w: sh.stdout}
	sh.interactive = true
	var lines lineReader
	if tty {
		rl, err := terminalLines(stdin, sh.stdout, sh.stderr, historyPath(dataDir))
		if err != nil {
			fmt.Fprintf(sh.stderr, "plrun: %v\n", err)
			return 1
		}
		lines = rl
		stopSignals := sh.cancelOnInterrupt()
		defer stopSignals()
	} else {
		lines = plainLines(stdin, sh.stdout) // prompts and the echoed input make a transcript
	}
	defer lines.Close()
	fmt.Fprintf(sh.stdout, "Welcome to plrun (data: %s). Statements end with ';'; procedure bodies go in $$ ... $$.\n", dataDir)
	fmt.Fprintf(sh.stdout, "Type 'help' for help, 'exit' or Ctrl-D to leave.\n\n")
	sh.runScript(context.Background(), lines)
	fmt.Fprintln(sh.stdout, "Bye")
	return 0
}
