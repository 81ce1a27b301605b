package sysvar

import (
	"os"
	"strings"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// The general and slow query logs' variables (sql/querylog writes the
// files). A file name that is not absolute is in the data folder, as
// mysqld reads it; the defaults are MariaDB's, after the host name.
func init() {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "plrun"
	}
	host, _, _ = strings.Cut(host, ".")
	for _, d := range []*Def{
		// slow_query_log has a session scope in MariaDB: a session may
		// keep its statements out of the log.
		{Name: "slow_query_log", Kind: KindBool, Def: "OFF", Global: true, Session: true},
		{Name: "log_slow_query", Kind: KindBool, Def: "OFF", Global: true, Session: true, store: "slow_query_log"},
		{Name: "slow_query_log_file", Kind: varString, Def: host + "-slow.log", Global: true, GlobalOnly: true},
		{Name: "log_slow_query_file", Kind: varString, Def: host + "-slow.log", Global: true, store: "slow_query_log_file", GlobalOnly: true},
		// log_slow_file is issue 13's name for it.
		{Name: "log_slow_file", Kind: varString, Def: host + "-slow.log", Global: true, store: "slow_query_log_file", GlobalOnly: true},
		{Name: "log_slow_query_time", Kind: KindFloat, Def: "10.000000", min: 0, max: 31536000, Global: true, Session: true, store: "long_query_time"},
		{Name: "general_log", Kind: KindBool, Def: "OFF", Global: true, GlobalOnly: true},
		{Name: "general_log_file", Kind: varString, Def: host + ".log", Global: true, GlobalOnly: true},
		{Name: "log_output", Kind: varSet, enum: []string{"NONE", "FILE", "TABLE"}, Def: "FILE", Global: true, GlobalOnly: true},
		{Name: "log_queries_not_using_indexes", Kind: KindBool, Def: "OFF", Global: true, Session: true},
		{Name: "min_examined_row_limit", Kind: KindInt, Def: "0", min: 0, max: 1<<32 - 1, Global: true, Session: true},
		{Name: "log_slow_admin_statements", Kind: KindBool, Def: "ON", Global: true, Session: true},
	} {
		Defs[d.Name] = d
	}
}

// normalizeSet reads a SET variable's value (log_output): a comma list of
// its members in any order and case, or the number whose bits name them,
// written back as MariaDB shows it, the members in declared order.
func normalizeSet(d *Def, v types.Value) (string, error) {
	wrong := func(text string) error {
		return sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.Name, text)
	}
	var bits uint64
	switch v.K {
	case types.KindInt, types.KindUint:
		n, ok := v.ToInt64()
		if !ok || n <= 0 || n >= 1<<len(d.enum) {
			return "", wrong(v.String())
		}
		bits = uint64(n)
	case types.KindNull:
		return "", wrong("NULL")
	case types.KindDecimal, types.KindFloat:
		return "", sqlerr.New(sqlerr.ErWrongTypeForVar, "Incorrect argument type to variable '%s'", d.Name)
	default:
		for _, part := range strings.Split(v.String(), ",") {
			i := indexFold(d.enum, strings.TrimSpace(part))
			if i < 0 {
				return "", wrong(v.String())
			}
			bits |= 1 << i
		}
	}
	var names []string
	for i, e := range d.enum {
		if bits&(1<<i) != 0 {
			names = append(names, e)
		}
	}
	return strings.Join(names, ","), nil
}

func indexFold(list []string, s string) int {
	for i, e := range list {
		if strings.EqualFold(e, s) {
			return i
		}
	}
	return -1
}

// checkLogVar refuses what the logs cannot do: an empty file name (as
// MariaDB), and log_output=TABLE (no mysql.general_log and
// mysql.slow_log tables here).
func checkLogVar(d *Def, text string) error {
	switch d.Key() {
	case "slow_query_log_file", "general_log_file":
		if text == "" {
			return sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.Name, text)
		}
	case "log_output":
		for _, part := range strings.Split(text, ",") {
			if part == "TABLE" {
				return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support 'log_output=TABLE' (the logs are files: use FILE or NONE)")
			}
		}
	}
	return nil
}
