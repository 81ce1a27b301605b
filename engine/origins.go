package engine

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/plrun/plrun/sql/sysvar"
)

// OptionSetting is a global setting read from an option file (plrun.cnf,
// --defaults-file, --defaults-extra-file): applied before plrun-auto.cnf
// and the command line, so both override it (MySQL 8's order). Source is
// the file's kind and Path:Line where the setting was written, for
// performance_schema.variables_info and error messages.
type OptionSetting struct {
	Name, Value string
	Source      sysvar.Source
	Path        string
	Line        int
}

// applyOptionSettings sets the option files' settings at open, as
// strictly as --set; a bad one names its file and line.
func (e *Engine) applyOptionSettings() error {
	for _, o := range e.cfg.OptionSettings {
		if err := e.openSetting(o.Name, o.Value, sysvar.Origin{Source: o.Source, Path: o.Path}); err != nil {
			return fmt.Errorf("%s:%d: %s = %s: %w", o.Path, o.Line, o.Name, o.Value, err)
		}
	}
	return nil
}

// applyCommandLine sets Config.Settings and Config.Workers, the settings
// given when the database is opened, over everything else.
func (e *Engine) applyCommandLine() error {
	for name, val := range e.cfg.Settings {
		if key := strings.ToLower(name); startupOnly[key] {
			// applied first (applyStartupOnly); again now, over an option
			// file's secure_file_priv
			e.globals.Mu.Lock()
			e.globals.Vals[key] = val
			e.globals.Mu.Unlock()
			e.globals.SetOrigin(key, sysvar.Origin{Source: sysvar.SourceCommandLine})
			continue
		}
		if err := e.openSetting(name, val, sysvar.Origin{Source: sysvar.SourceCommandLine}); err != nil {
			return err
		}
	}
	if e.cfg.Workers > 0 {
		return e.openSetting("plrun_workers", strconv.Itoa(e.cfg.Workers), sysvar.Origin{Source: sysvar.SourceCommandLine})
	}
	return nil
}

// openSetting is one setting at open and where it came from.
func (e *Engine) openSetting(name, val string, o sysvar.Origin) error {
	if strings.EqualFold(name, "secure_file_priv") {
		// Read-only at run time, like MySQL's: only set at open.
		e.globals.Mu.Lock()
		e.globals.Vals["secure_file_priv"] = val
		e.globals.Mu.Unlock()
		e.globals.SetOrigin("secure_file_priv", o)
		return nil
	}
	d, err := sysvar.Lookup(name)
	if err == nil && o.Source != sysvar.SourcePersisted {
		// mysqld's size suffixes (512M) on the command line and in option
		// files; plrun-auto.cnf holds what SET PERSIST stored, as SET reads it.
		if val, err = sysvar.OptionText(d, val); err != nil {
			return err
		}
		if startupSettings[d.Key()] {
			return e.setStartupSetting(d, val, o)
		}
	}
	if err := e.setOpenSetting(name, val); err != nil {
		return err
	}
	if d != nil {
		e.globals.SetOrigin(d.Key(), o)
	}
	return nil
}

// persistedPath is plrun-auto.cnf's absolute path (variables_info's
// VARIABLE_PATH for PERSISTED).
func (e *Engine) persistedPath() string {
	p := filepath.Join(e.cfg.Dir, persistFile)
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
