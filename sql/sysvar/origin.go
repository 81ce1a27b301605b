package sysvar

import (
	"strconv"
	"time"
)

// Source is where a global variable's value came from, in MySQL 8's
// words (performance_schema.variables_info.VARIABLE_SOURCE).
type Source string

const (
	// SourceCompiled: the compiled-in default, not set any other way.
	SourceCompiled Source = "COMPILED"
	// SourceGlobal: the data folder's plrun.cnf (MySQL's term for an
	// option file that is none of the others below).
	SourceGlobal Source = "GLOBAL"
	// SourceExplicit: the option file named by --defaults-file.
	SourceExplicit Source = "EXPLICIT"
	// SourceExtra: the option file named by --defaults-extra-file.
	SourceExtra Source = "EXTRA"
	// SourcePersisted: plrun-auto.cnf (SET PERSIST, ALTER SYSTEM SET).
	SourcePersisted Source = "PERSISTED"
	// SourceCommandLine: --set, --workers and the other settings given
	// when the database was opened (a DSN's parameters, Options.Settings).
	SourceCommandLine Source = "COMMAND_LINE"
	// SourceDynamic: SET GLOBAL, SET PERSIST, ALTER SYSTEM SET while running.
	SourceDynamic Source = "DYNAMIC"
)

// Origin is how a global variable got its value: the source, the file
// for an option file or plrun-auto.cnf, and for DYNAMIC when and by whom
// (SetTime is the database's start for the others, as in MySQL).
type Origin struct {
	Source     Source
	Path       string
	SetTime    time.Time
	User, Host string
}

// SetOrigin records how the variable stored under key got its value.
func (g *Globals) SetOrigin(key string, o Origin) {
	if o.SetTime.IsZero() {
		o.SetTime = g.started
	}
	g.Mu.Lock()
	defer g.Mu.Unlock()
	g.origins[key] = o
}

// OriginOf is how the variable stored under key got its value: COMPILED
// at the start time if nothing set it.
func (g *Globals) OriginOf(key string) Origin {
	g.Mu.RLock()
	defer g.Mu.RUnlock()
	if o, ok := g.origins[key]; ok {
		return o
	}
	return Origin{Source: SourceCompiled, SetTime: g.started}
}

// Range is the variable's smallest and largest value as variables_info
// shows them: "0" and "0" for a variable that is not a number.
func (d *Def) Range() (min, max string) {
	if (d.Kind != KindInt && d.Kind != KindFloat) || (d.min == 0 && d.max == 0) {
		return "0", "0"
	}
	return strconv.FormatInt(d.min, 10), strconv.FormatInt(d.max, 10)
}
