package engine

import (
	"sort"
	"strings"

	"github.com/plrun/plrun/sql/sysvar"
)

// ChangedSetting is a global setting whose value differs from its
// compiled-in default, and where the value came from.
type ChangedSetting struct {
	Name, Value string
	// Source is "startup" (Config.Settings: --set, --workers and the
	// like), "persisted" (plrun-auto.cnf: SET PERSIST, ALTER SYSTEM SET)
	// or "SET GLOBAL" (changed since the engine opened).
	Source string
}

// ChangedSettings lists the global settings that differ from their
// defaults, by name: what the error log's start line names.
func (e *Engine) ChangedSettings() []ChangedSetting {
	key := func(n string) string {
		if d, err := sysvar.Lookup(n); err == nil {
			return d.Key()
		}
		return strings.ToLower(n)
	}
	fromConfig := map[string]bool{}
	for n := range e.cfg.Settings {
		fromConfig[key(n)] = true
	}
	if e.cfg.Workers > 0 {
		fromConfig["plrun_workers"] = true
	}
	e.persistMu.Lock()
	persisted := make(map[string]bool, len(e.persisted))
	for n := range e.persisted {
		persisted[key(n)] = true
	}
	e.persistMu.Unlock()
	var out []ChangedSetting
	for name, d := range sysvar.Defs {
		if d.Key() != name {
			continue // an alias: listed under the variable's own name
		}
		v := e.globals.Get(name)
		if v == d.Def {
			continue
		}
		source := "SET GLOBAL"
		switch {
		case fromConfig[name]:
			source = "startup"
		case persisted[name]:
			source = "persisted"
		}
		out = append(out, ChangedSetting{Name: name, Value: v, Source: source})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
