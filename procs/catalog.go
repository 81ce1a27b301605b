package procs

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/plrun/plrun/sqlerr"
)

// DefaultDB is the database Create, Restore and the short forms use.
const DefaultDB = "test"

// Catalog holds the compiled procedures of all databases. It is safe for
// concurrent use; Get and Call take only a read lock, and compiling happens
// outside any lock.
type Catalog struct {
	runtimes map[string]Runtime // by upper-case language name; read-only after NewCatalog

	mu    sync.RWMutex
	procs map[string]*catalogEntry  // key: lower(db)+"."+lower(name)
	funcs map[string]*functionEntry // stored functions, keyed the same way
	// triggers in firing order; copy-on-write, so a slice read under the
	// lock stays valid after it (catalog_triggers.go)
	triggers []*Trigger
}

type catalogEntry struct {
	db   string
	def  *Definition
	prog Program
}

// NewCatalog returns an empty catalog that compiles with runtimes.
func NewCatalog(runtimes ...Runtime) *Catalog {
	c := &Catalog{runtimes: map[string]Runtime{}, procs: map[string]*catalogEntry{}, funcs: map[string]*functionEntry{}}
	for _, rt := range runtimes {
		c.runtimes[strings.ToUpper(rt.Language())] = rt
	}
	return c
}

func procKey(db, name string) string { return strings.ToLower(db) + "." + strings.ToLower(name) }

func cloneDef(def *Definition) *Definition {
	d := *def
	d.Params = append([]Param(nil), def.Params...)
	if def.Func != nil {
		f := *def.Func
		f.Characteristics = append([]string(nil), def.Func.Characteristics...)
		d.Func = &f
	}
	return &d
}

// compile copies def and compiles the copy with the runtime for its language.
func (c *Catalog) compile(def *Definition) (*Definition, Program, error) {
	if def == nil || def.Name == "" {
		return nil, nil, sqlerr.New(sqlerr.ErParse, "procedure has no name")
	}
	def = cloneDef(def)
	def.Language = strings.ToUpper(def.Language)
	rt, ok := c.runtimes[def.Language]
	if !ok {
		return nil, nil, sqlerr.New(sqlerr.ErParse,
			"You have an error in your SQL syntax; unknown LANGUAGE %s for PROCEDURE %s (supported: %s)",
			def.Language, def.Name, strings.Join(c.languages(), ", "))
	}
	prog, err := rt.Compile(def)
	if err != nil {
		return nil, nil, err
	}
	return def, prog, nil
}

func (c *Catalog) languages() []string {
	var langs []string
	for l := range c.runtimes {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	return langs
}

// Create compiles def and adds it to DefaultDB. See CreateIn.
func (c *Catalog) Create(def *Definition, orReplace bool) error {
	return c.CreateIn(DefaultDB, def, orReplace)
}

// CreateIn compiles def (a copy of it: the caller keeps its value) and adds
// it to db. An existing procedure of the same name is error 1304 unless
// orReplace. Created and Modified are set to now when empty (a definition
// replayed from the log keeps its own); a replace keeps the original
// Created.
func (c *Catalog) CreateIn(db string, def *Definition, orReplace bool) error {
	if def != nil && !orReplace {
		// Cheap early answer; the check below under the lock is the real one.
		if _, _, exists := c.Get(db, def.Name); exists {
			return sqlerr.New(sqlerr.ErSPAlreadyExists, "PROCEDURE %s already exists", def.Name)
		}
	}
	def, prog, err := c.compile(def)
	if err != nil {
		return err
	}
	key := procKey(db, def.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	old, exists := c.procs[key]
	if exists && !orReplace {
		return sqlerr.New(sqlerr.ErSPAlreadyExists, "PROCEDURE %s already exists", def.Name)
	}
	var replaced *Definition
	if exists {
		replaced = old.def
	}
	stampTimes(def, replaced)
	c.procs[key] = &catalogEntry{db: db, def: def, prog: prog}
	return nil
}

// Drop removes db.name. A missing procedure is error 1305 unless ifExists.
func (c *Catalog) Drop(db, name string, ifExists bool) error {
	key := procKey(db, name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.procs[key]; !ok {
		if ifExists {
			return nil
		}
		return notExist(db, name)
	}
	delete(c.procs, key)
	return nil
}

func notExist(db, name string) error {
	return sqlerr.New(sqlerr.ErSPDoesNotExist, "PROCEDURE %s.%s does not exist", db, name)
}

// Get returns db.name's definition (do not modify it) and program.
func (c *Catalog) Get(db, name string) (*Definition, Program, bool) {
	c.mu.RLock()
	e, ok := c.procs[procKey(db, name)]
	c.mu.RUnlock()
	if !ok {
		return nil, nil, false
	}
	return e.def, e.prog, true
}

// List returns every definition of every database, sorted by database then
// name (case-insensitively). The definitions must not be modified.
func (c *Catalog) List() []*Definition {
	return c.list(func(string) bool { return true })
}

// ListIn is List restricted to db; it is what a snapshot of db stores.
func (c *Catalog) ListIn(db string) []*Definition {
	prefix := strings.ToLower(db) + "."
	return c.list(func(key string) bool { return strings.HasPrefix(key, prefix) })
}

func (c *Catalog) list(keep func(key string) bool) []*Definition {
	c.mu.RLock()
	var keys []string
	for _, k := range sortedKeys(c.procs) {
		if keep(k) {
			keys = append(keys, k)
		}
	}
	defs := make([]*Definition, len(keys))
	for i, k := range keys {
		defs[i] = c.procs[k].def
	}
	c.mu.RUnlock()
	return defs
}

// Restore loads stored definitions into DefaultDB. See RestoreIn.
func (c *Catalog) Restore(defs []*Definition) error {
	return c.RestoreIn(DefaultDB, defs)
}

// RestoreIn compiles every definition and, only if all compile, adds them
// to db, replacing procedures of the same names and keeping their stored
// Created/Modified times. It is what the engine calls at startup with the
// definitions it logged (as JSON).
func (c *Catalog) RestoreIn(db string, defs []*Definition) error {
	entries := make(map[string]*catalogEntry, len(defs))
	for _, d := range defs {
		def, prog, err := c.compile(d)
		if err != nil {
			return fmt.Errorf("restore PROCEDURE %s.%s: %w", db, nameOf(d), err)
		}
		entries[procKey(db, def.Name)] = &catalogEntry{db: db, def: def, prog: prog}
	}
	c.mu.Lock()
	for k, e := range entries {
		c.procs[k] = e
	}
	c.mu.Unlock()
	return nil
}

func sortedKeys[E any](m map[string]E) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func nameOf(d *Definition) string {
	if d == nil {
		return "<nil>"
	}
	return d.Name
}

// Call runs db.name with args in parameter order (one per parameter; OUT
// parameters' values are ignored). IN and INOUT arguments are converted to
// the declared types first (see ConvertParam); the program's OUT and INOUT
// results are converted the same way. outs has one value per parameter, nil
// for IN ones.
func (c *Catalog) Call(ctx context.Context, host Host, db, name string, args []any) (outs []any, err error) {
	def, prog, ok := c.Get(db, name)
	if !ok {
		return nil, notExist(db, name)
	}
	return callProgram(ctx, host, db, def, prog, args)
}

// BlockResult is the variable an anonymous block (DO LANGUAGE ...) sets
// to return a value: a number, string or boolean.
const BlockResult = "result"

// CompileBlock compiles an anonymous block (DO LANGUAGE lang $$ body $$),
// run by CallBlock: a body like a procedure's, with the session in
// session, no parameters, and one OUT variable, BlockResult.
func (c *Catalog) CompileBlock(lang, body string) (*Definition, Program, error) {
	if strings.EqualFold(lang, "JS") {
		lang = LanguageJavaScript
	}
	return c.compile(&Definition{Name: "DO", Language: lang, Body: body,
		Params: []Param{{Mode: ModeOut, Name: BlockResult, Type: "JSON"}}})
}

// CallBlock runs a block compiled by CompileBlock and returns the value
// its body left in BlockResult (nil if none).
func (c *Catalog) CallBlock(ctx context.Context, host Host, def *Definition, prog Program) (any, error) {
	outs, err := callProgram(ctx, host, "", def, prog, []any{nil})
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

func callProgram(ctx context.Context, host Host, db string, def *Definition, prog Program, args []any) (outs []any, err error) {
	if len(args) != len(def.Params) {
		return nil, sqlerr.New(sqlerr.ErSPWrongNoOfArgs,
			"Incorrect number of arguments for PROCEDURE %s.%s; expected %d, got %d",
			db, def.Name, len(def.Params), len(args))
	}
	in := make([]any, len(args))
	for i, prm := range def.Params {
		if prm.Mode == ModeOut {
			continue
		}
		if in[i], err = ConvertParam(prm, args[i]); err != nil {
			return nil, err
		}
	}
	outs, err = prog.Call(ctx, host, in)
	if err != nil {
		return nil, err
	}
	if len(outs) != len(def.Params) {
		return nil, sqlerr.New(sqlerr.ErUnknown, "PROCEDURE %s.%s returned %d values for %d parameters",
			db, def.Name, len(outs), len(def.Params))
	}
	for i, prm := range def.Params {
		if prm.Mode == ModeIn {
			outs[i] = nil
			continue
		}
		if outs[i], err = ConvertParam(prm, outs[i]); err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// stampTimes fills def's Created and Modified as CREATE [OR REPLACE] keeps
// them: Modified is now unless given (a restore keeps the logged one);
// Created is the replaced definition's, else given or now.
func stampTimes(def, replaced *Definition) {
	now := time.Now().Format("2006-01-02 15:04:05")
	if def.Modified == "" {
		def.Modified = now
	}
	switch {
	case replaced != nil:
		def.Created = replaced.Created
	case def.Created == "":
		def.Created = now
	}
}
