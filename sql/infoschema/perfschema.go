package infoschema

import (
	"sort"
	"strings"
	"time"

	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// performance_schema holds only what plrun fills for real: MySQL 8's
// variables_info (where each global variable's value came from). Its
// tables are BASE TABLEs of engine PERFORMANCE_SCHEMA, as MySQL and
// MariaDB list them.

// perfTables are performance_schema's tables by upper-case name.
var perfTables = map[string]*table{}

func registerPerf(t *table) {
	def := &storage.TableDef{DB: PerfName, Name: t.name, Engine: "PERFORMANCE_SCHEMA", Charset: "utf8mb3", Collate: "utf8mb3_general_ci"}
	for _, c := range t.cols {
		def.Columns = append(def.Columns, storage.Column{Name: c.name, Type: c.typ, NotNull: c.notNull})
	}
	t.def = def
	perfTables[strings.ToUpper(t.name)] = t
}

// variableSources are VARIABLE_SOURCE's members, in MySQL 8's order.
var variableSources = []string{"COMPILED", "GLOBAL", "SERVER", "EXPLICIT", "EXTRA", "USER", "LOGIN", "COMMAND_LINE", "PERSISTED", "DYNAMIC"}

func init() {
	registerPerf(&table{name: "variables_info", cols: []column{
		{"VARIABLE_NAME", varchar(64), true},
		{"VARIABLE_SOURCE", types.ColType{Base: types.TEnum, Members: types.MembersOf(variableSources)}, false},
		{"VARIABLE_PATH", varchar(1024), false},
		{"MIN_VALUE", varchar(64), false},
		{"MAX_VALUE", varchar(64), false},
		{"SET_TIME", types.ColType{Base: types.TTimestamp, Scale: 6}, false},
		{"SET_USER", types.ColType{Base: types.TChar, Length: 32}, false},
		{"SET_HOST", types.ColType{Base: types.TChar, Length: 255}, false},
	}, rows: variablesInfoRows, nameCol: "VARIABLE_NAME"})
}

// variablesInfoRows are one row per system variable, by name: where its
// global value came from (sysvar.Origin), its range, and when and by
// whom it was last set (the start time and empty names if never).
func variablesInfoRows(src Source, f filter) [][]types.Value {
	names := make([]string, 0, len(sysvar.Defs))
	for n, d := range sysvar.Defs {
		if n == d.Name && f.keeps("", n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	loc, err := sysvar.ParseTimeZone(src.SysVar(sysvar.Defs["time_zone"], false))
	if err != nil {
		loc = time.Local
	}
	out := make([][]types.Value, 0, len(names))
	for _, n := range names {
		d := sysvar.Defs[n]
		o := src.VarOrigin(d.Key())
		lo, hi := d.Range()
		source := 0
		for i, s := range variableSources {
			if s == string(o.Source) {
				source = i
			}
		}
		out = append(out, []types.Value{str(n), types.EnumValue(variableSources[source], source+1), str(o.Path),
			str(lo), str(hi), types.TimeValueFsp(o.SetTime.In(loc), 6), str(o.User), str(o.Host)})
	}
	return out
}

// perfStatusRow is SHOW TABLE STATUS's row of a performance_schema table.
func perfStatusRow(name string) []types.Value {
	return []types.Value{str(name), str("PERFORMANCE_SCHEMA"), u64(10), str("Dynamic"), u64(0), u64(0), u64(0), u64(0), u64(0), u64(0),
		null, null, null, null, str("utf8mb3_general_ci"), null, str(""), str(""), u64(0), str("N")}
}
