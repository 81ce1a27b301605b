package sql

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// varKind is how a system variable's value is validated.
type varKind int

const (
	varBool varKind = iota
	varInt
	varString
)

// varDef declares one system variable.
type varDef struct {
	name     string
	kind     varKind
	def      string
	min, max int64
	global   bool // may be SET GLOBAL
	session  bool // may be SET SESSION
	readOnly bool
}

// sysVars are the variables plrun knows. Names are lower case.
var sysVars = func() map[string]*varDef {
	defs := []*varDef{
		{name: "enable_early_lock_release", kind: varBool, def: "OFF", global: true},
		{name: "_max_elr_dependent_trx_count", kind: varInt, def: "0", min: 0, max: 1 << 31, global: true},
		{name: "ob_enable_pl_async_commit", kind: varBool, def: "OFF", global: true, session: true},
		{name: "hotspot", kind: varBool, def: "OFF", global: true},
		{name: "hotspot_for_autocommit", kind: varBool, def: "OFF", global: true},
		{name: "hotspot_update_max_wait_time", kind: varInt, def: "100", min: 0, max: 1000000, global: true},
		{name: "hotspot_lock_type", kind: varBool, def: "OFF", global: true},
		{name: "consensus_large_trx", kind: varBool, def: "ON", global: true},
		{name: "consensus_max_log_size", kind: varInt, def: "20971520", min: 0, max: 1 << 40, global: true},
		{name: "consensus_large_trx_split_size", kind: varInt, def: "2097152", min: 64, max: 1 << 40, global: true},
		{name: "consensus_large_event_split_size", kind: varInt, def: "2097152", min: 64, max: 1 << 40, global: true},
		{name: "innodb_lock_wait_timeout", kind: varInt, def: "50", min: 1, max: 1073741824, global: true, session: true},
		{name: "innodb_flush_log_at_trx_commit", kind: varInt, def: "1", min: 0, max: 2, global: true},
		{name: "secure_file_priv", kind: varString, def: "", readOnly: true},
		{name: "plrun_workers", kind: varInt, def: "64", min: 1, max: 65536, global: true},
		{name: "plrun_log_sync_delay_us", kind: varInt, def: "0", min: 0, max: 10000000, global: true},
		{name: "plrun_checkpoint_log_size", kind: varInt, def: "67108864", min: 1 << 20, max: 1 << 40, global: true},
		{name: "max_execution_time", kind: varInt, def: "0", min: 0, max: 1 << 32, global: true, session: true},
		{name: "autocommit", kind: varBool, def: "ON", global: true, session: true},
		{name: "sql_mode", kind: varString, def: "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION", global: true, session: true},
		{name: "transaction_isolation", kind: varString, def: "READ-COMMITTED", global: true, session: true},
		{name: "tx_isolation", kind: varString, def: "READ-COMMITTED", global: true, session: true},
		{name: "version", kind: varString, def: "8.0.36-plrun", readOnly: true},
		{name: "version_comment", kind: varString, def: "plrun", readOnly: true},
		{name: "max_allowed_packet", kind: varInt, def: "67108864", min: 1024, max: 1 << 30, global: true, session: true},
		{name: "character_set_client", kind: varString, def: "utf8mb4", global: true, session: true},
		{name: "character_set_connection", kind: varString, def: "utf8mb4", global: true, session: true},
		{name: "character_set_results", kind: varString, def: "utf8mb4", global: true, session: true},
		{name: "character_set_server", kind: varString, def: "utf8mb4", global: true, session: true},
		{name: "collation_connection", kind: varString, def: "utf8mb4_general_ci", global: true, session: true},
		{name: "collation_server", kind: varString, def: "utf8mb4_general_ci", global: true, session: true},
		// Every database is utf8mb4 (the mysql client's `status` reads these).
		{name: "character_set_database", kind: varString, def: "utf8mb4", readOnly: true},
		{name: "collation_database", kind: varString, def: "utf8mb4_general_ci", readOnly: true},
		{name: "names", kind: varString, def: "utf8mb4", session: true},
		{name: "time_zone", kind: varString, def: "SYSTEM", global: true, session: true},
		{name: "system_time_zone", kind: varString, def: "UTC", readOnly: true},
		{name: "lower_case_table_names", kind: varInt, def: "0", readOnly: true},
		{name: "interactive_timeout", kind: varInt, def: "28800", min: 1, max: 31536000, global: true, session: true},
		{name: "wait_timeout", kind: varInt, def: "28800", min: 1, max: 31536000, global: true, session: true},
		{name: "net_write_timeout", kind: varInt, def: "60", min: 1, max: 31536000, global: true, session: true},
		{name: "sql_select_limit", kind: varInt, def: "18446744073709551615", min: 0, max: 1<<63 - 1, global: true, session: true},
		{name: "sql_auto_is_null", kind: varBool, def: "OFF", global: true, session: true},
		{name: "init_connect", kind: varString, def: "", global: true},
		{name: "license", kind: varString, def: "Apache-2.0", readOnly: true},
		{name: "performance_schema", kind: varBool, def: "OFF", readOnly: true},
		{name: "query_cache_size", kind: varInt, def: "0", min: 0, max: 0, global: true},
		{name: "query_cache_type", kind: varString, def: "OFF", global: true, session: true},
		{name: "div_precision_increment", kind: varInt, def: "4", readOnly: true},
		{name: "auto_increment_increment", kind: varInt, def: "1", readOnly: true},
		{name: "auto_increment_offset", kind: varInt, def: "1", readOnly: true},
		{name: "foreign_key_checks", kind: varBool, def: "ON", global: true, session: true},
		{name: "unique_checks", kind: varBool, def: "ON", global: true, session: true},
		{name: "sql_safe_updates", kind: varBool, def: "OFF", global: true, session: true},
		{name: "net_buffer_length", kind: varInt, def: "16384", min: 1024, max: 1048576, global: true, session: true},
		{name: "transaction_read_only", kind: varBool, def: "OFF", global: true, session: true},
		{name: "tx_read_only", kind: varBool, def: "OFF", global: true, session: true},
		{name: "session_track_gtids", kind: varString, def: "OFF", global: true, session: true},
		{name: "last_insert_id", kind: varInt, def: "0", min: 0, max: 1<<63 - 1, session: true},
	}
	m := make(map[string]*varDef, len(defs))
	for _, d := range defs {
		m[d.name] = d
	}
	return m
}()

// globalVars holds the global values; reads are on hot paths (ELR, flush
// mode), so the hot ones are mirrored in atomics by the Engine.
type globalVars struct {
	mu   sync.RWMutex
	vals map[string]string
}

func newGlobalVars() *globalVars {
	g := &globalVars{vals: make(map[string]string, len(sysVars))}
	for n, d := range sysVars {
		g.vals[n] = d.def
	}
	return g
}

func (g *globalVars) get(name string) string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.vals[name]
}

// normalizeVar validates value for d and returns its canonical text.
func normalizeVar(d *varDef, v types.Value) (string, error) {
	switch d.kind {
	case varBool:
		var s string
		switch v.K {
		case types.KindInt, types.KindUint, types.KindDecimal, types.KindFloat:
			n, _ := v.ToInt64()
			switch n {
			case 0:
				s = "OFF"
			case 1:
				s = "ON"
			default:
				return "", sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.name, v.String())
			}
		case types.KindNull:
			return "", sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of 'NULL'", d.name)
		default:
			switch strings.ToUpper(v.String()) {
			case "ON", "TRUE", "1", "YES":
				s = "ON"
			case "OFF", "FALSE", "0", "NO":
				s = "OFF"
			default:
				return "", sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.name, v.String())
			}
		}
		return s, nil
	case varInt:
		if v.K == types.KindString {
			if _, err := strconv.ParseFloat(strings.TrimSpace(v.S), 64); err != nil {
				return "", sqlerr.New(sqlerr.ErWrongTypeForVar, "Incorrect argument type to variable '%s'", d.name)
			}
		}
		if v.K == types.KindNull {
			return "", sqlerr.New(sqlerr.ErWrongTypeForVar, "Incorrect argument type to variable '%s'", d.name)
		}
		if v.K == types.KindUint {
			u := v.Uint()
			if d.max > 0 && u > uint64(d.max) {
				u = uint64(d.max)
			}
			return strconv.FormatUint(u, 10), nil
		}
		n, ok := v.ToInt64()
		if !ok {
			return "", sqlerr.New(sqlerr.ErWrongTypeForVar, "Incorrect argument type to variable '%s'", d.name)
		}
		if n < d.min {
			n = d.min
		}
		if n > d.max {
			n = d.max
		}
		return strconv.FormatInt(n, 10), nil
	default:
		if v.K == types.KindNull {
			return "", nil
		}
		return v.String(), nil
	}
}

func lookupVar(name string) (*varDef, error) {
	d, ok := sysVars[strings.ToLower(name)]
	if !ok {
		return nil, sqlerr.New(sqlerr.ErUnknownSystemVar, "Unknown system variable '%s'", name)
	}
	return d, nil
}

// varValue turns a stored variable text into the value SELECT @@x returns.
func varValue(d *varDef, s string) types.Value {
	switch d.kind {
	case varInt:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return types.IntValue(n)
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return types.UintValue(u)
		}
	case varBool:
		if s == "ON" {
			return types.IntValue(1)
		}
		return types.IntValue(0)
	}
	return types.StringValue(s)
}

func sortedVarNames() []string {
	names := make([]string, 0, len(sysVars))
	for n := range sysVars {
		if n == "names" {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// likeMatch implements SQL LIKE with % and _ (case-insensitive) and \ escapes.
func likeMatch(pattern, s string) bool {
	return likeRunes([]rune(strings.ToLower(pattern)), []rune(strings.ToLower(s)))
}

func likeRunes(p, s []rune) bool {
	for len(p) > 0 {
		switch p[0] {
		case '%':
			for len(p) > 0 && p[0] == '%' {
				p = p[1:]
			}
			if len(p) == 0 {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if likeRunes(p, s[i:]) {
					return true
				}
			}
			return false
		case '_':
			if len(s) == 0 {
				return false
			}
			p, s = p[1:], s[1:]
		case '\\':
			if len(p) > 1 {
				p = p[1:]
			}
			fallthrough
		default:
			if len(s) == 0 || s[0] != p[0] {
				return false
			}
			p, s = p[1:], s[1:]
		}
	}
	return len(s) == 0
}
