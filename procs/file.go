package procs

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// ParseFile parses a procedure file: name.lua or name.js whose first line
// declares the signature,
//
//	--! PROCEDURE name(IN a INT, OUT b DECIMAL(12,2))     (Lua)
//	//! PROCEDURE name(IN a INT, OUT b DECIMAL(12,2))     (JavaScript)
//
// optionally followed by characteristics (COMMENT '...', DETERMINISTIC, ...;
// not LANGUAGE: the extension decides it). The body is the rest of the file,
// so script line N is file line N+1 (FirstLine 2); the Definition keeps
// filename so errors name the file and its line. The procedure name comes
// from the header, not the file name.
func ParseFile(filename string, content []byte) (*Definition, error) {
	var lang, marker string
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".lua":
		lang, marker = LanguageLua, "--!"
	case ".js":
		lang, marker = LanguageJavaScript, "//!"
	case ".sql":
		return parseSQLFile(filename, content)
	default:
		return nil, sqlerr.New(sqlerr.ErParse, "%s: procedure files must end in .lua, .js or .sql", filename)
	}
	content = bytes.TrimPrefix(content, []byte("\xef\xbb\xbf"))
	header, body, _ := strings.Cut(string(content), "\n")
	header = strings.TrimRight(header, "\r")
	rest, ok := strings.CutPrefix(strings.TrimLeft(header, " \t"), marker)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErParse, "%s line 1: expected '%s PROCEDURE name(...)'", filename, marker)
	}
	p := &parser{src: rest}
	def := &Definition{Language: lang, Body: body, Delimiter: "$$", File: filename, FirstLine: 2}
	if !p.keyword("PROCEDURE") {
		return nil, fileSyntaxError(filename, p)
	}
	if err := p.signature(def); err != nil {
		return nil, fileError(filename, err)
	}
	if err := p.characteristics(&CreateStmt{Def: def}, false); err != nil {
		return nil, fileError(filename, err)
	}
	p.skipSpace()
	if !p.eof() {
		return nil, fileSyntaxError(filename, p)
	}
	return def, nil
}

func fileSyntaxError(filename string, p *parser) error {
	return fileError(filename, p.syntaxError())
}

func fileError(filename string, err error) error {
	if e, ok := sqlerr.As(err); ok {
		return sqlerr.New(e.Code, "%s: %s", filename, e.Message)
	}
	return err
}

// parseSQLFile reads a .sql procedure file: one CREATE [OR REPLACE]
// PROCEDURE statement of a SQL/PSM procedure (no DELIMITER lines), whose
// body lines are the file's lines.
func parseSQLFile(filename string, content []byte) (*Definition, error) {
	content = bytes.TrimPrefix(content, []byte("\xef\xbb\xbf"))
	st, err := ParseCreateStmt(string(content))
	if err != nil {
		return nil, fileError(filename, err)
	}
	if st.Def.Language != LanguageSQL {
		return nil, sqlerr.New(sqlerr.ErParse, "%s: a .sql file holds a SQL procedure (BEGIN ... END), not LANGUAGE %s", filename, st.Def.Language)
	}
	// BodyLine already counts file lines: the file is the statement.
	st.Def.File, st.Def.FirstLine = filename, 1
	return st.Def, nil
}

// LoadDir parses every *.lua, *.js and *.sql file of dir, in file-name order.
func LoadDir(dir string) ([]*Definition, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if !e.IsDir() && (ext == ".lua" || ext == ".js" || ext == ".sql") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	defs := make([]*Definition, 0, len(names))
	for _, name := range names {
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		def, err := ParseFile(filepath.Join(dir, name), content)
		if err != nil {
			return nil, err
		}
		defs = append(defs, def)
	}
	return defs, nil
}
