package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

const (
	prompt         = "plrun> "
	continuePrompt = "    -> "
	maxSourceDepth = 16 // source FILE may nest, but not forever
)

// shell runs statements from lines of input on one session.
type shell struct {
	sess        *plrun.Session
	printer     printer
	stdout      io.Writer
	stderr      io.Writer
	interactive bool // REPL: errors go into the transcript on stdout
	script      bool // a script: stop at the first error, run a last statement without ';'
	depth       int  // nesting of source FILE
	run         *runState
}

// runState is shared by a shell and the shells of the files it sources.
type runState struct {
	quit bool // exit was typed: leave every level of source

	mu     sync.Mutex // guards cancel; interrupt runs on the signal goroutine
	cancel context.CancelFunc
}

// runScript reads lines until EOF or exit and runs every statement they
// complete. A script stops at the first error and reports false; a REPL
// prints the error and goes on.
func (sh *shell) runScript(ctx context.Context, lines lineReader) bool {
	buf := ""
	for !sh.run.quit {
		p := prompt
		if buf != "" {
			p = continuePrompt
			if q := sql.OpenQuote(buf); q != "" {
				// mysql's prompts inside an open string or comment: '>, ">, `>, /*>
				p = strings.Repeat(" ", len(continuePrompt)-len(q)-2) + q + "> "
			}
		}
		line, err := lines.ReadLine(p)
		if errors.Is(err, errInterrupt) {
			buf = "" // Ctrl-C discards the statement being typed
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fmt.Fprintf(sh.stderr, "plrun: reading input: %v\n", err)
				return false
			}
			// At the end of a script a statement without ';' still runs,
			// as in mysql; an interactive Ctrl-D just leaves.
			if buf != "" && sh.script {
				return sh.exec(ctx, strings.TrimSpace(buf), false)
			}
			return true
		}
		if buf == "" {
			if done, ok := sh.clientCommand(ctx, line); done {
				if !ok && sh.script {
					return false
				}
				continue
			}
		}
		trimmed := strings.TrimRight(line, " \t\r")
		if strings.HasSuffix(trimmed, `\c`) {
			buf = "" // mysql's \c: clear the current statement
			continue
		}
		vertical := false
		if strings.HasSuffix(trimmed, `\G`) {
			line, vertical = strings.TrimSuffix(trimmed, `\G`)+";", true
		}
		stmts, rest := sql.SplitStatements(buf + line + "\n")
		if len(stmts) == 0 && strings.TrimSpace(rest) == "" && strings.Trim(buf+line, " \t\r;") == "" && strings.Contains(line, ";") {
			// A bare ';', as mysql answers it.
			w := sh.stderr
			if sh.interactive {
				w = sh.stdout
			}
			fmt.Fprintln(w, "ERROR: No query specified")
		}
		buf = rest
		for _, stmt := range stmts {
			if !sh.exec(ctx, stmt, vertical) && sh.script {
				return false
			}
		}
	}
	return true
}

// commandWord splits a client command line into its lower-cased first word
// and the rest, without a trailing ';'.
func commandWord(line string) (word, arg string) {
	line = strings.TrimSpace(line)
	line = strings.TrimSpace(strings.TrimSuffix(line, ";"))
	word, arg, _ = strings.Cut(line, " ")
	return strings.ToLower(word), strings.TrimSpace(arg)
}

// clientCommand handles a line that is a command of the client rather
// than SQL. done reports whether the line was one; ok whether it worked.
func (sh *shell) clientCommand(ctx context.Context, line string) (done, ok bool) {
	word, arg := commandWord(line)
	switch word {
	case "exit", "quit", `\q`:
		if arg != "" {
			return false, false
		}
		sh.run.quit = true
		return true, true
	case "help", `\h`, "?", `\?`:
		if arg != "" {
			return false, false // HELP 'topic' is SQL
		}
		fmt.Fprint(sh.stdout, replHelp)
		return true, true
	case "source", `\.`:
		if arg == "" {
			return false, false
		}
		return true, sh.source(ctx, arg)
	}
	return false, false
}

// source runs a script file on this session, as mysql's source does.
func (sh *shell) source(ctx context.Context, path string) bool {
	if sh.depth >= maxSourceDepth {
		sh.printError(fmt.Errorf("source %s: nested more than %d deep", path, maxSourceDepth))
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		sh.printError(err)
		return false
	}
	defer f.Close()
	sub := *sh
	sub.depth++
	sub.script = true
	return sub.runScript(ctx, plainLines(f, nil))
}

// exec runs one statement and prints its outcome.
func (sh *shell) exec(ctx context.Context, stmt string, vertical bool) bool {
	ctx, cancel := context.WithCancel(ctx)
	sh.run.mu.Lock()
	sh.run.cancel = cancel
	sh.run.mu.Unlock()
	defer func() {
		sh.run.mu.Lock()
		sh.run.cancel = nil
		sh.run.mu.Unlock()
		cancel()
	}()
	start := time.Now()
	res, err := sh.sess.Exec(ctx, stmt)
	elapsed := time.Since(start)
	if err != nil {
		sh.printError(err)
		return false
	}
	sh.printer.print(stmt, res, elapsed, vertical)
	return true
}

// printError prints err as mysql does: ERROR code (state): message. In a
// REPL it goes with the rest of the transcript; in batch mode to stderr.
func (sh *shell) printError(err error) {
	w := sh.stderr
	if sh.interactive {
		w = sh.stdout
	}
	if e, ok := sqlerr.As(err); ok {
		fmt.Fprintln(w, e.Error())
	} else {
		fmt.Fprintf(w, "ERROR %d (HY000): %v\n", sqlerr.ErUnknown, err)
	}
	if sh.interactive {
		fmt.Fprintln(w)
	}
}

// interrupt cancels the statement running now, if any (Ctrl-C in the REPL).
func (sh *shell) interrupt() bool {
	sh.run.mu.Lock()
	defer sh.run.mu.Unlock()
	if sh.run.cancel == nil {
		return false
	}
	sh.run.cancel()
	return true
}

const replHelp = `Statements end with ';' and may span lines; a procedure body goes in $$ ... $$.
Client commands:
  exit, quit, \q    leave (Ctrl-D too)
  source FILE       run the statements of FILE (also \. FILE)
  help, \h          this text
  ...\c             (at the end of a line) discard the statement being typed
  ...\G             (instead of ;) print the rows vertically
  Ctrl-C            discard the line being typed, or cancel the running statement
Try: SHOW TABLES; SHOW VARIABLES LIKE 'enable%'; SHOW GLOBAL STATUS LIKE 'Plrun%';

`
