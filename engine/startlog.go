package engine

import (
	"sort"

	"github.com/plrun/plrun/sql/sysvar"
)

// ChangedSetting is a global setting whose value differs from its
// compiled-in default, and where the value came from.
type ChangedSetting struct {
	Name, Value string
	// Source and Path are the variable's origin as
	// performance_schema.variables_info shows it (sysvar.Origin).
	Source string
	Path   string
}

// ChangedSettings lists the global settings that differ from their
// defaults, by name: what the error log's start and stop lines name.
func (e *Engine) ChangedSettings() []ChangedSetting {
	var out []ChangedSetting
	for name, d := range sysvar.Defs {
		if d.Key() != name {
			continue // an alias: listed under the variable's own name
		}
		v := e.globals.Get(name)
		if v == d.Def {
			continue
		}
		o := e.globals.OriginOf(name)
		out = append(out, ChangedSetting{Name: name, Value: v, Source: string(o.Source), Path: o.Path})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
