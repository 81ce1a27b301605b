package main

import (
	"context"
	"sort"
	"strings"
	"unicode"

	"github.com/plrun/plrun"
)

// sqlKeywords are what Tab completes besides names.
var sqlKeywords = strings.Fields(`SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET INSERT INTO VALUES
UPDATE SET DELETE REPLACE CREATE DROP TABLE DATABASE DATABASES PROCEDURE PROCEDURES INDEX PRIMARY KEY UNIQUE
DEFAULT NOT NULL AUTO_INCREMENT AND OR IN IS LIKE BETWEEN EXISTS DISTINCT AS JOIN LEFT INNER ON USING
COUNT SUM AVG MIN MAX BEGIN START TRANSACTION COMMIT ROLLBACK SAVEPOINT CALL SHOW TABLES COLUMNS VARIABLES
STATUS GLOBAL SESSION PROCESSLIST WARNINGS EXPLAIN DESCRIBE USE TRUNCATE LANGUAGE LUA JAVASCRIPT
CHECKPOINT LOAD ALTER SYSTEM KILL QUERY FOR INT BIGINT DECIMAL VARCHAR CHAR TEXT DATETIME TIMESTAMP DOUBLE
DUPLICATE IGNORE DELIMITER SOURCE STATUS EXIT QUIT HELP`)

// completer is the REPL's Tab completion: keywords, and (unless -A) the
// names of the current database's tables, their columns and procedures,
// read from the session when Tab is pressed, so they are never stale. The
// session is idle then: readline runs the completer while the REPL waits
// for the line.
type completer struct {
	sess     *plrun.Session
	keywords bool // only keywords (-A)
}

// Do implements readline.AutoCompleter: the candidates' remaining runes
// for the word before the cursor, and that word's length.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	start := pos
	for start > 0 && isNameRune(line[start-1]) {
		start--
	}
	word := string(line[start:pos])
	if word == "" {
		return nil, 0
	}
	upper := strings.ToUpper(word) == word && strings.ToLower(word) != word
	seen := map[string]bool{}
	var out [][]rune
	add := func(cand string, keepCase bool) {
		if !keepCase {
			if upper {
				cand = strings.ToUpper(cand)
			} else {
				cand = strings.ToLower(cand)
			}
		}
		if len(cand) <= len(word) || !strings.EqualFold(cand[:len(word)], word) || seen[cand] {
			return
		}
		seen[cand] = true
		out = append(out, []rune(cand[len(word):]))
	}
	for _, k := range sqlKeywords {
		add(k, false)
	}
	if !c.keywords {
		for _, n := range c.names() {
			add(n, true)
		}
	}
	sort.Slice(out, func(i, j int) bool { return string(out[i]) < string(out[j]) })
	return out, len([]rune(word))
}

// names lists the current database's tables, columns and procedures.
func (c *completer) names() []string {
	ctx := context.Background()
	var names []string
	col0 := func(q string, each func(string)) {
		res, err := c.sess.Query(ctx, q)
		if err != nil {
			return
		}
		for _, row := range res.Rows {
			if len(row) > 0 {
				each(row[0].String())
			}
		}
	}
	var tables []string
	col0("SHOW TABLES", func(t string) { tables = append(tables, t) })
	names = append(names, tables...)
	for i, t := range tables {
		if i == 200 {
			break // a huge schema: tables only
		}
		col0("SHOW COLUMNS FROM `"+strings.ReplaceAll(t, "`", "``")+"`", func(n string) { names = append(names, n) })
	}
	res, err := c.sess.Query(ctx, "SHOW PROCEDURE STATUS")
	if err == nil {
		for _, row := range res.Rows {
			if len(row) > 1 {
				names = append(names, row[1].String()) // Db, Name, ...
			}
		}
	}
	return names
}

func isNameRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
