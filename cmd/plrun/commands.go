package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/plrun/plrun/sql/parse"
)

// commandWord splits a client command line into its lower-cased first word
// and the rest, without a trailing ';'.
func commandWord(line string) (word, arg string) {
	line = strings.TrimSpace(line)
	line = strings.TrimSpace(strings.TrimSuffix(line, ";"))
	word, arg, _ = strings.Cut(line, " ")
	if !strings.HasPrefix(word, `\`) { // \T (tee) and \t (notee) differ by case
		word = strings.ToLower(word)
	}
	return word, strings.TrimSpace(arg)
}

// clientCommand handles a line that is a command of the client rather
// than SQL, as the mysql client does at the start of a statement. done
// reports whether the line was one; ok whether it worked.
func (sh *shell) clientCommand(ctx context.Context, line string, lineNo int) (done, ok bool) {
	fields := strings.Fields(line)
	if d := sh.delimiter(); d != ";" {
		line = strings.TrimSuffix(strings.TrimSpace(line), d)
	}
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
		sh.out.echo(replHelp)
		return true, true
	case "source", `\.`:
		if arg == "" {
			return false, false
		}
		return true, sh.source(ctx, arg)
	case "delimiter", `\d`:
		// The delimiter is the word after the command, as typed (a ';'
		// after it belongs to it, and so does the current delimiter).
		if len(fields) < 2 || strings.ContainsRune(fields[1], '\\') {
			sh.printMessage("DELIMITER must be followed by a 'delimiter' character or string")
			return true, false
		}
		sh.run.delim = fields[1]
		if fields[1] == ";" {
			sh.run.delim = ""
		}
		return true, true
	case "use", `\u`:
		if _, after, ok := strings.Cut(arg, sh.delimiter()); ok && strings.TrimSpace(after) != "" {
			// "use db; select ...": statements follow on the line, so
			// USE is the first of them and runs as SQL (as mysql runs it).
			return false, false
		}
		if arg == "" {
			sh.printMessage("USE must be followed by a database name")
			return true, false
		}
		db := strings.Trim(strings.Fields(arg)[0], "`")
		return true, sh.exec(ctx, parse.Statement{Text: "USE `" + strings.ReplaceAll(db, "`", "``") + "`"}, lineNo)
	case "status", `\s`:
		if arg != "" {
			return false, false
		}
		sh.status(ctx)
		return true, true
	case "pager", `\P`:
		if !sh.interactive {
			return true, true // mysql ignores the pager in batch mode
		}
		sh.out.pager = arg
		if arg == "" {
			sh.out.pager = os.Getenv("PAGER")
		}
		if sh.out.pager == "" {
			sh.out.echo("Default pager wasn't set, using stdout.\n")
		} else {
			sh.out.echo(fmt.Sprintf("PAGER set to '%s'\n", sh.out.pager))
		}
		return true, true
	case "nopager", `\n`:
		sh.out.pager = ""
		sh.out.echo("PAGER set to stdout\n")
		return true, true
	case "tee", `\T`:
		if arg == "" {
			sh.printMessage("No outfile specified!")
			return true, false
		}
		if err := sh.out.setTee(arg); err != nil {
			sh.printMessage(fmt.Sprintf("Error logging to file '%s': %v", arg, err))
			return true, false
		}
		sh.out.echo(fmt.Sprintf("Logging to file '%s'\n", arg))
		return true, true
	case "notee", `\t`:
		sh.out.closeTee()
		sh.out.echo("Outfile disabled.\n")
		return true, true
	case `\lua`, `\js`, `\sql`:
		if arg != "" {
			return false, false
		}
		sh.lang = map[string]string{`\lua`: "LUA", `\js`: "JAVASCRIPT", `\sql`: ""}[word]
		if sh.lang != "" && sh.interactive {
			sh.out.echo(fmt.Sprintf("%s mode: each chunk ending in '%s' runs as DO LANGUAGE %s, with session available; an expression shows its value. \\sql goes back.\n",
				strings.ToLower(sh.lang), sh.delimiter(), sh.lang))
		}
		return true, true
	case ".import", `\i`:
		return true, sh.importCSV(ctx, arg, lineNo)
	}
	return false, false
}

// source runs a script file on this session, as mysql's source does: an
// error is reported with its line and file, and the file goes on (unless
// --abort-source-on-error).
func (sh *shell) source(ctx context.Context, path string) bool {
	if sh.depth >= maxSourceDepth {
		sh.printMessage(fmt.Sprintf("ERROR: source %s: nested more than %d deep", path, maxSourceDepth))
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		sh.printMessage(fmt.Sprintf("ERROR: Failed to open file '%s', error: %v", path, err))
		return false
	}
	defer f.Close()
	sub := *sh
	sub.depth++
	sub.script = true
	sub.file = path
	sub.history = nil
	return sub.runScript(ctx, plainLines(f, nil))
}

// status prints what mysql's status (\s) does, plus the settings that
// decide plrun's commit behaviour.
func (sh *shell) status(ctx context.Context) {
	q := func(query string) string {
		res, err := sh.sess.Query(ctx, query)
		if err != nil || len(res.Rows) == 0 || len(res.Rows[0]) == 0 {
			return "?"
		}
		return res.Rows[0][len(res.Rows[0])-1].String()
	}
	db := sh.sess.SQL().CurrentDB()
	if db == "" {
		db = "(none)"
	}
	pager := sh.out.pager
	if pager == "" {
		pager = "stdout"
	}
	uptime := "?"
	if s := q("SHOW GLOBAL STATUS LIKE 'Uptime'"); s != "?" {
		var secs int64
		fmt.Sscan(s, &secs)
		uptime = (time.Duration(secs) * time.Second).String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--------------\nplrun (%s, embedded engine)\n\n", runtime.Version())
	row := func(name, val string) { fmt.Fprintf(&b, "%-22s%s\n", name+":", val) }
	row("Connection id", q("SELECT CONNECTION_ID()"))
	row("Current database", db)
	row("Current user", q("SELECT CURRENT_USER()"))
	row("Current pager", pager)
	row("Using outfile", "'"+sh.out.teeTo+"'")
	row("Using delimiter", sh.delimiter())
	row("Server version", q("SELECT VERSION()"))
	row("Data directory", sh.dataDir)
	row("Uptime", uptime)
	b.WriteByte('\n')
	row("Early lock release", q("SHOW VARIABLES LIKE 'enable_early_lock_release'"))
	row("PL async commit", q("SHOW VARIABLES LIKE 'ob_enable_pl_async_commit'"))
	row("Log flush mode", q("SHOW VARIABLES LIKE 'innodb_flush_log_at_trx_commit'")+
		" (innodb_flush_log_at_trx_commit: 1 sync every commit, 2 write every commit and sync each second, 0 sync each second)")
	row("Hot-row grouping", q("SHOW VARIABLES LIKE 'hotspot'"))
	row("Commits", q("SHOW GLOBAL STATUS LIKE 'Plrun_commits'"))
	b.WriteString("--------------\n\n")
	sh.out.echo(b.String())
}

const replHelp = `Statements end with ';' (or the DELIMITER) and may span lines; a procedure body goes in $$ ... $$.
Client commands (at the start of a line; a trailing ';' is optional):
  exit, quit, \q       leave (Ctrl-D too)
  source FILE, \. FILE run the statements of FILE; errors name the line, and the file goes on
  delimiter STR, \d    end statements with STR instead of ';' (DELIMITER ;; to switch back)
  use DB, \u DB        make DB the current database
  status, \s           connection, database, uptime and the commit settings
  pager [CMD], \P      send each result through CMD (e.g. less -S); nopager, \n: stdout again
  tee FILE, \T FILE    also append the transcript to FILE; notee, \t: stop
  \lua, \js, \sql      run Lua / JavaScript chunks (ending in ';') as DO LANGUAGE blocks; back to SQL
  .import FILE TABLE   insert the rows of a CSV file into TABLE (a header row naming its columns is skipped)
  help, \h             this text
  ...\c                (at the end of a line) discard the statement being typed
  ...\G                (instead of ;) print the rows vertically
  Tab                  complete keywords, tables, columns and procedures
  Ctrl-C               discard the line being typed, or cancel the running statement
Try: SHOW TABLES; SHOW VARIABLES LIKE 'enable%'; SHOW GLOBAL STATUS LIKE 'Plrun%';

`
