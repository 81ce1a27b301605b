package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/plrun/plrun/sql"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// Persisted settings. ALTER SYSTEM SET (OceanBase persists it) and SET
// PERSIST (MySQL 8) keep a global setting in the data folder's
// plrun-auto.cnf (MySQL's mysqld-auto.cnf), so it survives a restart;
// SET PERSIST_ONLY keeps it for the next start without changing it now;
// RESET PERSIST forgets one or all. At open the persisted values are
// applied first, then --set, so a flag given at start wins for that run
// without changing the file. The file is JSON, written whole to a
// temporary file, fsynced and renamed, so a crash leaves the old or the
// new one. plain SET GLOBAL is not persisted, as in MySQL.

const persistFile = "plrun-auto.cnf"

type persistedSettings struct {
	Version  int               `json:"version"`
	Settings map[string]string `json:"settings"`
}

// loadPersisted reads the data folder's persisted settings (none if the
// file does not exist).
func loadPersisted(dir string) (map[string]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, persistFile))
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.ErUnknown, "reading persisted settings: %v", err)
	}
	var ps persistedSettings
	if err := json.Unmarshal(b, &ps); err != nil || ps.Version != 1 {
		return nil, sqlerr.New(sqlerr.ErUnknown, "%s is not a plrun persisted-settings file (%v); fix or remove it",
			filepath.Join(dir, persistFile), err)
	}
	if ps.Settings == nil {
		ps.Settings = map[string]string{}
	}
	return ps.Settings, nil
}

// applyPersisted sets the persisted values at open, as strictly as --set.
func (e *Engine) applyPersisted() error {
	vals, err := loadPersisted(e.cfg.Dir)
	if err != nil {
		return err
	}
	e.persisted = vals
	names := make([]string, 0, len(vals))
	for n := range vals {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := e.openSetting(n, vals[n], sysvar.Origin{Source: sysvar.SourcePersisted, Path: e.persistedPath()}); err != nil {
			return fmt.Errorf("%s: persisted %s = %s: %w", persistFile, n, vals[n], err)
		}
	}
	return nil
}

// persistSetting sets a global variable (unless only) and persists the
// value it took.
func (e *Engine) persistSetting(name string, v types.Value, only bool) (*sql.Note, error) {
	d, err := sysvar.Lookup(name)
	if err != nil {
		return nil, err
	}
	var warn *sql.Note
	var text string
	if only {
		if d.ReadOnly || !d.Global {
			return nil, sqlerr.New(sqlerr.ErReadOnlyVariable, "Variable '%s' is a read only variable", d.Name)
		}
		if text, warn, err = sysvar.Normalize(d, v); err == nil {
			err = sysvar.Check(d, text)
		}
	} else if warn, err = e.setGlobal(name, v); err == nil {
		text = e.globals.Get(d.Key())
	}
	if err != nil {
		return nil, err
	}
	e.persistMu.Lock()
	defer e.persistMu.Unlock()
	next := make(map[string]string, len(e.persisted)+1)
	for k, val := range e.persisted {
		next[k] = val
	}
	next[d.Key()] = text
	if err := writePersisted(e.cfg.Dir, next); err != nil {
		return nil, err
	}
	e.persisted = next
	return warn, nil
}

// resetPersisted is RESET PERSIST [[IF EXISTS] name]: the setting keeps
// its current value, but the next start uses its default (or --set).
func (e *Engine) resetPersisted(name string, ifExists bool) error {
	e.persistMu.Lock()
	defer e.persistMu.Unlock()
	next := map[string]string{}
	if name != "" {
		key := strings.ToLower(name)
		if d, err := sysvar.Lookup(name); err == nil {
			key = d.Key()
		}
		if _, ok := e.persisted[key]; !ok {
			if ifExists {
				return nil
			}
			return sqlerr.New(sqlerr.ErVarNotPersisted, "Variable %s does not exist in persisted config file", name)
		}
		for k, v := range e.persisted {
			if k != key {
				next[k] = v
			}
		}
	}
	if err := writePersisted(e.cfg.Dir, next); err != nil {
		return err
	}
	e.persisted = next
	return nil
}

// writePersisted replaces the file atomically: temporary file, fsync,
// rename, fsync of the folder.
func writePersisted(dir string, vals map[string]string) error {
	b, err := json.MarshalIndent(persistedSettings{Version: 1, Settings: vals}, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, persistFile)
	tmp := path + ".tmp"
	fail := func(err error) error {
		os.Remove(tmp)
		return sqlerr.Wrap(err, sqlerr.ErUnknown, "persisting settings: %v", err)
	}
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o640)
	if err != nil {
		return fail(err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fail(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fail(err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fail(err)
	}
	return nil
}
