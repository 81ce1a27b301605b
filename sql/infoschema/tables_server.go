package infoschema

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/types"
)

// The tables about the server: PROCESSLIST, ENGINES, CHARACTER_SETS,
// COLLATIONS, and the settings and counters of SHOW VARIABLES and SHOW
// STATUS.

func init() {
	register(&table{name: "PROCESSLIST", cols: []column{
		{"ID", bigint(4), true}, {"USER", varchar(128), true}, {"HOST", varchar(64), true}, {"DB", varchar(64), false},
		{"COMMAND", varchar(16), true}, {"TIME", intw(7), true}, {"STATE", varchar(64), false}, {"INFO", longtext, false},
		{"TIME_MS", types.ColType{Base: types.TDecimal, Length: 22, Scale: 3}, true},
		{"STAGE", types.ColType{Base: types.TTinyInt, Length: 2}, true}, {"MAX_STAGE", types.ColType{Base: types.TTinyInt, Length: 2}, true},
		{"PROGRESS", types.ColType{Base: types.TDecimal, Length: 7, Scale: 3}, true}, {"MEMORY_USED", bigint(7), true},
		{"MAX_MEMORY_USED", bigint(7), true}, {"EXAMINED_ROWS", intw(7), true}, {"QUERY_ID", bigint(4), true},
		{"INFO_BINARY", longtext, false}, {"TID", bigint(4), true},
	}, rows: processlistRows})
	register(&table{name: "ENGINES", cols: []column{
		{"ENGINE", varchar(64), true}, {"SUPPORT", varchar(8), true}, {"COMMENT", varchar(160), true},
		{"TRANSACTIONS", varchar(3), false}, {"XA", varchar(3), false}, {"SAVEPOINTS", varchar(3), false},
	}, rows: func(Source, filter) [][]types.Value { return strRows(Engines) }})
	register(&table{name: "CHARACTER_SETS", cols: []column{
		{"CHARACTER_SET_NAME", varchar(32), true}, {"DEFAULT_COLLATE_NAME", varchar(64), true},
		{"DESCRIPTION", varchar(60), true}, {"MAXLEN", bigint(3), true},
	}, rows: func(Source, filter) [][]types.Value {
		var out [][]types.Value
		for _, c := range CharacterSets {
			out = append(out, []types.Value{str(c[0]), str(c[2]), str(c[1]), i64(int64(bytesPerChar))})
		}
		return out
	}})
	register(&table{name: "COLLATIONS", cols: []column{
		{"COLLATION_NAME", varchar(64), true}, {"CHARACTER_SET_NAME", varchar(32), false}, {"ID", bigint(11), false},
		{"IS_DEFAULT", varchar(3), false}, {"IS_COMPILED", varchar(3), true}, {"SORTLEN", bigint(3), true},
	}, rows: func(Source, filter) [][]types.Value {
		var out [][]types.Value
		for _, c := range Collations {
			id, _ := strconv.ParseInt(c[2], 10, 64)
			sortlen, _ := strconv.ParseInt(c[5], 10, 64)
			out = append(out, []types.Value{str(c[0]), str(c[1]), i64(id), str(c[3]), str(c[4]), i64(sortlen)})
		}
		return out
	}})
	for _, v := range []struct {
		name   string
		global bool
		status bool
	}{{"SESSION_VARIABLES", false, false}, {"GLOBAL_VARIABLES", true, false}, {"SESSION_STATUS", false, true}, {"GLOBAL_STATUS", true, true}} {
		v := v
		register(&table{name: v.name, cols: []column{{"VARIABLE_NAME", varchar(64), true}, {"VARIABLE_VALUE", varchar(4096), true}},
			rows: func(src Source, _ filter) [][]types.Value {
				if v.status {
					return statusRows(src, v.global)
				}
				return variableRows(src, v.global)
			}})
	}
}

// Engines are SHOW ENGINES' rows: InnoDB, plrun's one engine.
var Engines = [][]string{{"InnoDB", "DEFAULT", "plrun in-memory tables with a write-ahead log", "YES", "NO", "YES"}}

// CharacterSets are SHOW CHARACTER SET's rows: Charset, Description,
// Default collation, Maxlen.
var CharacterSets = [][]string{{"utf8mb4", "UTF-8 Unicode", "utf8mb4_general_ci", "4"}}

// Collations are SHOW COLLATION's rows: Collation, Charset, Id, Default,
// Compiled, Sortlen.
var Collations = [][]string{{"utf8mb4_general_ci", "utf8mb4", "45", "Yes", "Yes", "1"}}

func strRows(rows [][]string) [][]types.Value {
	out := make([][]types.Value, len(rows))
	for i, r := range rows {
		out[i] = make([]types.Value, len(r))
		for j, s := range r {
			out[i][j] = str(s)
		}
	}
	return out
}

func processlistRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	for _, p := range src.Processlist() {
		ms, _, _ := apd.NewFromString(strconv.FormatInt(p.Time*1000, 10) + ".000")
		progress, _, _ := apd.NewFromString("0.000")
		out = append(out, []types.Value{i64(int64(p.ID)), str(p.User), str(p.Host), strOrNull(p.DB), str(p.Command), i64(p.Time),
			str(p.State), strOrNull(p.Info), types.DecimalValue(ms), i64(0), i64(0), types.DecimalValue(progress), i64(0), i64(0),
			i64(0), i64(0), strOrNull(p.Info), i64(int64(p.ID))})
	}
	return out
}

// variableRows are SHOW [GLOBAL] VARIABLES' rows (the same names), named in upper case as
// MariaDB's information_schema names them.
func variableRows(src Source, global bool) [][]types.Value {
	var out [][]types.Value
	for _, name := range sysvar.SortedNames() {
		d := sysvar.Defs[name]
		out = append(out, []types.Value{str(strings.ToUpper(name)), str(src.SysVar(d, global))})
	}
	return out
}

func statusRows(src Source, global bool) [][]types.Value {
	var out [][]types.Value
	for _, r := range src.Status(global) {
		out = append(out, []types.Value{str(strings.ToUpper(r[0])), str(r[1])})
	}
	return out
}
