package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/chzyer/readline"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/querylog"
)

// errInterrupt is what a lineReader returns for Ctrl-C at the prompt.
var errInterrupt = errors.New("interrupt")

// lineReader yields input lines without their newline; io.EOF at the end.
type lineReader interface {
	ReadLine(prompt string) (string, error)
	Close() error
}

// plainReader reads lines from any reader. With echo set it writes each
// prompt and the line read after it, so a piped REPL session prints the
// transcript a terminal would show.
type plainReader struct {
	in   *bufio.Reader
	echo io.Writer
}

func plainLines(r io.Reader, echo io.Writer) lineReader {
	return &plainReader{in: bufio.NewReaderSize(r, 64<<10), echo: echo}
}

func (p *plainReader) ReadLine(prompt string) (string, error) {
	line, err := p.in.ReadString('\n')
	if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
		return "", err
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if p.echo != nil {
		fmt.Fprintf(p.echo, "%s%s\n", prompt, line)
	}
	return line, nil
}

func (p *plainReader) Close() error { return nil }

// ttyReader is the interactive editor: line editing and a history file.
type ttyReader struct{ rl *readline.Instance }

// terminalLines is the REPL's editor. History holds whole statements, as
// the mysql client's does, not physical lines: the shell saves each
// statement once it is complete (saveHistory).
func terminalLines(stdin io.Reader, stdout, stderr io.Writer, history string, complete readline.AutoCompleter) (*ttyReader, error) {
	in, _ := stdin.(io.ReadCloser)
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 "plrun> ",
		HistoryFile:            history,
		HistoryLimit:           10000,
		DisableAutoSaveHistory: true,
		AutoComplete:           complete,
		InterruptPrompt:        "^C",
		EOFPrompt:              "exit",
		Stdin:                  in,
		Stdout:                 stdout,
		Stderr:                 stderr,
	})
	if err != nil {
		return nil, err
	}
	return &ttyReader{rl: rl}, nil
}

func (t *ttyReader) ReadLine(prompt string) (string, error) {
	t.rl.SetPrompt(prompt)
	line, err := t.rl.Readline()
	if errors.Is(err, readline.ErrInterrupt) {
		return "", errInterrupt
	}
	return line, err
}

func (t *ttyReader) Close() error { return t.rl.Close() }

func (t *ttyReader) saveHistory(stmt string) {
	if keepsInHistory(stmt) {
		_ = t.rl.SaveHistory(stmt)
	}
}

// keepsInHistory reports whether stmt may go to the history file: not a
// statement holding a password (CREATE USER ... IDENTIFIED BY 'pw', SET
// PASSWORD = ...), which the mysql client's histignore also leaves out.
func keepsInHistory(stmt string) bool { return querylog.RedactText(stmt, mysql.ModeNone) == stmt }

// isTerminal reports whether r is a terminal (so the REPL is wanted).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && readline.IsTerminal(int(f.Fd()))
}

// historyPath is ~/.plrun_history, or the data folder's when there is no
// home directory.
func historyPath(dataDir string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		return filepath.Join(home, ".plrun_history")
	}
	return filepath.Join(dataDir, ".plrun_history")
}

// cancelOnInterrupt turns SIGINT (Ctrl-C while a statement runs; at the
// prompt readline reads Ctrl-C itself) into cancelling that statement, as
// mysql's KILL QUERY on Ctrl-C. stop restores the default behaviour.
func (sh *shell) cancelOnInterrupt() (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case <-done:
				return
			case <-sig:
				if sh.interrupt() {
					sh.out.echo("^C -- query aborted\n")
				}
			}
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
		<-exited
	}
}
