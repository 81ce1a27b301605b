package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sqlerr"
)

const (
	continuePrompt = "    -> "
	maxSourceDepth = 16 // source FILE may nest, but not forever
)

// shell runs statements from lines of input on one session.
type shell struct {
	sess        *plrun.Session
	printer     *printer
	out         *output
	stderr      io.Writer
	opts        *clientOptions
	interactive bool   // REPL: errors go into the transcript on stdout
	script      bool   // a script: a last statement without ';' still runs
	file        string // the file being sourced; "" at the top level
	depth       int    // nesting of source FILE
	dataDir     string
	started     time.Time
	run         *runState
	history     func(stmt string) // records a whole statement (REPL)
	lang        string            // \lua / \js mode: "LUA" or "JAVASCRIPT"; "" for SQL
}

// runState is shared by a shell and the shells of the files it sources.
type runState struct {
	quit  bool   // exit was typed: leave every level of source
	delim string // DELIMITER; "" is ';'

	mu     sync.Mutex // guards cancel; interrupt runs on the signal goroutine
	cancel context.CancelFunc
}

// prompt is MariaDB's: the current database in brackets.
func (sh *shell) prompt() string {
	switch sh.lang {
	case "LUA":
		return "plrun lua> "
	case "JAVASCRIPT":
		return "plrun js> "
	}
	db := sh.sess.SQL().CurrentDB()
	if db == "" {
		db = "(none)"
	}
	return "plrun [" + db + "]> "
}

// stopsOnError says whether an error ends this script: the top level of a
// batch script unless --force; a sourced file only with
// --abort-source-on-error (mysql goes on after errors in a sourced file).
func (sh *shell) stopsOnError() bool {
	if sh.file != "" {
		return sh.opts.abortSource
	}
	return sh.script && !sh.interactive && !sh.opts.force
}

// runScript reads lines until EOF or exit and runs every statement they
// complete. It reports false if an error stopped it (see stopsOnError) or
// if a batch script had an error (see finished).
func (sh *shell) runScript(ctx context.Context, lines lineReader) bool {
	buf, bufLine, lineNo := "", 0, 0
	failed := false
	for !sh.run.quit {
		p := sh.prompt()
		if buf != "" {
			p = continuePrompt
			if q := parse.OpenQuote(buf); q != "" {
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
			// At the end of a script a statement without its delimiter
			// still runs, as in mysql; an interactive Ctrl-D just leaves.
			if strings.TrimSpace(buf) != "" && sh.script {
				if !sh.exec(ctx, parse.Statement{Text: strings.TrimSpace(buf)}, bufLine) {
					failed = true
				}
			}
			return sh.finished(failed)
		}
		lineNo++
		if strings.TrimSpace(buf) == "" {
			buf = ""
			if done, ok := sh.clientCommand(ctx, line, lineNo); done {
				if sh.history != nil {
					sh.history(strings.TrimSpace(line))
				}
				if !ok {
					failed = true
					if sh.stopsOnError() {
						return false
					}
				}
				continue
			}
			bufLine = lineNo
		}
		trimmed := strings.TrimRight(line, " \t\r")
		if sh.lang != "" {
			// Script mode: a chunk of Lua or JavaScript ends with a line
			// ending in the delimiter, and runs as a DO block.
			buf += line + "\n"
			if chunk, ok := strings.CutSuffix(trimmed, sh.delimiter()); ok {
				chunk = strings.TrimSpace(buf[:len(buf)-len(line)-1] + chunk)
				buf = ""
				if chunk != "" && !sh.runChunk(ctx, chunk, bufLine) {
					failed = true
					if sh.stopsOnError() {
						return false
					}
				}
			}
			continue
		}
		if strings.HasSuffix(trimmed, `\c`) && parse.OpenQuote(buf+trimmed) == "" {
			buf = "" // mysql's \c: clear the current statement
			continue
		}
		text := buf + line + "\n"
		stmts, rest := parse.SplitScript(text, parse.ScriptOptions{Delimiter: sh.run.delim, ClientTerminators: true})
		if len(stmts) == 0 && strings.TrimSpace(rest) == "" && strings.Contains(line, sh.delimiter()) &&
			strings.Trim(strings.ReplaceAll(text, sh.delimiter(), ""), " \t\r\n") == "" {
			// A bare ';', as mysql answers it.
			sh.printMessage("ERROR: No query specified")
		}
		for _, st := range stmts {
			if sh.history != nil {
				sh.history(strings.Join(strings.Fields(st.Text), " ") + sh.delimiter())
			}
			if !sh.exec(ctx, st, bufLine+strings.Count(text[:st.Offset], "\n")) {
				failed = true
				if sh.stopsOnError() {
					return false
				}
			}
			if sh.run.quit {
				break
			}
		}
		if rest != "" {
			bufLine += strings.Count(text[:len(text)-len(rest)], "\n")
		}
		buf = rest
	}
	return sh.finished(failed)
}

// finished is runScript's result once its input ended: a sourced file's
// errors were reported and the source goes on; a batch script that had an
// error fails, unless --force (MariaDB's client then exits 0 too).
func (sh *shell) finished(failed bool) bool {
	if sh.file != "" || sh.interactive {
		return true
	}
	return !failed || sh.opts.force
}

// runChunk runs a chunk typed in \lua or \js mode as DO LANGUAGE ... $$
// chunk $$, with session available. A chunk that is an expression shows
// its value (it is first tried as result = (chunk); only if that does not
// compile does the chunk run as a block of statements).
func (sh *shell) runChunk(ctx context.Context, chunk string, line int) bool {
	tag := "$plrun$"
	if strings.Contains(chunk, tag) {
		sh.printMessage("ERROR: the chunk holds " + tag)
		return false
	}
	do := func(body string) string { return "DO LANGUAGE " + sh.lang + " " + tag + " " + body + " " + tag }
	ctx, done := sh.cancellable(ctx)
	defer done()
	start := time.Now()
	res, err := sh.sess.Exec(ctx, do("result = ("+chunk+")"))
	if e, ok := sqlerr.As(err); ok && e.Code == sqlerr.ErParse {
		start = time.Now()
		res, err = sh.sess.Exec(ctx, do(chunk))
	}
	if err != nil {
		sh.printError(err, line)
		return false
	}
	sh.out.write(sh.printer.render("DO", res, time.Since(start), sh.opts.vertical))
	return true
}

func (sh *shell) delimiter() string {
	if sh.run.delim == "" {
		return ";"
	}
	return sh.run.delim
}

// exec runs one statement and prints its outcome; line is where it began.
// Under a DELIMITER other than ';' the text goes to the engine whole, as
// the mysql client sends it, and may hold several statements.
func (sh *shell) exec(ctx context.Context, st parse.Statement, line int) bool {
	ctx, done := sh.cancellable(ctx)
	defer done()
	vertical := st.Vertical || sh.opts.vertical
	start := time.Now()
	if sh.delimiter() != ";" {
		results, err := sh.sess.SQL().ExecMulti(ctx, st.Text)
		elapsed := time.Since(start)
		for _, res := range results {
			sh.out.write(sh.printer.render(st.Text, res, elapsed, vertical))
		}
		if err != nil {
			sh.printFailedSets(st.Text, elapsed, vertical)
			sh.printError(err, line)
			return false
		}
		return true
	}
	res, err := sh.sess.Exec(ctx, st.Text)
	elapsed := time.Since(start)
	if err != nil {
		sh.printFailedSets(st.Text, elapsed, vertical)
		sh.printError(err, line)
		return false
	}
	sh.out.write(sh.printer.render(st.Text, res, elapsed, vertical))
	return true
}

// printFailedSets prints the result sets a failed CALL emitted before its
// error, as the mysql client shows them.
func (sh *shell) printFailedSets(stmt string, elapsed time.Duration, vertical bool) {
	for _, set := range sh.sess.SQL().FailedCallSets() {
		sh.out.write(sh.printer.render(stmt, set, elapsed, vertical))
	}
}

// cancellable is ctx for one statement that Ctrl-C (interrupt) cancels;
// done ends it.
func (sh *shell) cancellable(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	sh.run.mu.Lock()
	sh.run.cancel = cancel
	sh.run.mu.Unlock()
	return ctx, func() {
		sh.run.mu.Lock()
		sh.run.cancel = nil
		sh.run.mu.Unlock()
		cancel()
	}
}

// printError prints err as mysql does: ERROR code (state): message, and in
// a script "at line N" (and "in file: 'F'" inside source). In a REPL it
// goes with the rest of the transcript; in batch mode to stderr.
func (sh *shell) printError(err error, line int) {
	where := ""
	if sh.file != "" {
		where = fmt.Sprintf(" at line %d in file: '%s'", line, sh.file)
	} else if sh.script && !sh.interactive && line > 0 {
		where = fmt.Sprintf(" at line %d", line)
	}
	var msg string
	if e, ok := sqlerr.As(err); ok {
		msg = fmt.Sprintf("ERROR %d (%s)%s: %s", e.Code, e.State, where, e.Message)
	} else {
		msg = fmt.Sprintf("ERROR %d (HY000)%s: %v", sqlerr.ErUnknown, where, err)
	}
	sh.printMessage(msg)
}

// printMessage prints a line of the client's own: into the transcript in a
// REPL, to stderr in batch mode.
func (sh *shell) printMessage(msg string) {
	if sh.interactive {
		sh.out.echo(msg + "\n\n")
		return
	}
	fmt.Fprintln(sh.stderr, msg)
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
