package sql

import (
	"fmt"
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
	varEnum    // one of enum (case-insensitive), or its index
	varSQLMode // a comma list of sql_mode flags (sqlmode.go)
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
	enum     []string // varEnum: the values, in index order
	// rejectOutOfRange: a value outside [min, max] is error 1231 instead
	// of MySQL's clamp with warning 1292. Used where a clamp could lower
	// durability (innodb_flush_log_at_trx_commit=7 would become 2).
	rejectOutOfRange bool
	// store names the variable whose value this one is another name for
	// (tx_isolation is transaction_isolation).
	store string
}

// key is the name the variable's value is stored under.
func (d *varDef) key() string {
	if d.store != "" {
		return d.store
	}
	return d.name
}

// isolationLevels are transaction_isolation's values, in MySQL's index
// order.
var isolationLevels = []string{"READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"}

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
		{name: "innodb_flush_log_at_trx_commit", kind: varInt, def: "1", min: 0, max: 2, global: true, rejectOutOfRange: true},
		{name: "secure_file_priv", kind: varString, def: "", readOnly: true},
		{name: "plrun_workers", kind: varInt, def: "64", min: 1, max: 65536, global: true},
		{name: "plrun_log_sync_delay_us", kind: varInt, def: "0", min: 0, max: 10000000, global: true},
		{name: "plrun_checkpoint_log_size", kind: varInt, def: "67108864", min: 1 << 20, max: 1 << 40, global: true},
		{name: "max_execution_time", kind: varInt, def: "0", min: 0, max: 1<<32 - 1, global: true, session: true},
		{name: "plrun_max_statement_memory", kind: varInt, def: "1073741824", min: 1 << 20, max: 1 << 50, global: true, session: true},
		{name: "autocommit", kind: varBool, def: "ON", global: true, session: true},
		{name: "sql_mode", kind: varSQLMode, def: defaultSQLMode, global: true, session: true},
		{name: "transaction_isolation", kind: varEnum, enum: isolationLevels, def: "REPEATABLE-READ", global: true, session: true},
		{name: "tx_isolation", kind: varEnum, enum: isolationLevels, def: "REPEATABLE-READ", global: true, session: true, store: "transaction_isolation"},
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
		{name: "tx_read_only", kind: varBool, def: "OFF", global: true, session: true, store: "transaction_read_only"},
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
	for _, d := range sysVars {
		g.vals[d.key()] = d.def
	}
	return g
}

func (g *globalVars) get(name string) string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.vals[name]
}

// normalizeVar validates value for d and returns its canonical text, and
// the warning MySQL gives when it clamps an out-of-range number (nil if
// none). Numbers must come as numbers: a string for a numeric variable is
// error 1232, as in MariaDB.
func normalizeVar(d *varDef, v types.Value) (string, *Note, error) {
	wrongValue := func() error {
		text := v.String()
		if v.K == types.KindNull {
			text = "NULL"
		}
		return sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.name, text)
	}
	wrongType := func() error {
		return sqlerr.New(sqlerr.ErWrongTypeForVar, "Incorrect argument type to variable '%s'", d.name)
	}
	switch d.kind {
	case varBool:
		switch v.K {
		case types.KindInt, types.KindUint:
			n, _ := v.ToInt64()
			switch {
			case v.K == types.KindInt && n == 0:
				return "OFF", nil, nil
			case n == 1:
				return "ON", nil, nil
			}
			return "", nil, wrongValue()
		case types.KindDecimal, types.KindFloat:
			return "", nil, wrongType()
		case types.KindNull:
			return "", nil, wrongValue()
		}
		switch strings.ToUpper(v.String()) {
		case "ON", "1":
			return "ON", nil, nil
		case "OFF", "0":
			return "OFF", nil, nil
		}
		return "", nil, wrongValue()
	case varInt:
		n, clamped, ok := intSetting(v, d.min, d.max)
		if !ok {
			return "", nil, wrongType()
		}
		if clamped {
			if d.rejectOutOfRange {
				return "", nil, wrongValue()
			}
			return n, &Note{Level: "Warning", Code: sqlerr.ErTruncatedWrongValue,
				Message: fmt.Sprintf("Truncated incorrect %s value: '%s'", d.name, v.String())}, nil
		}
		return n, nil, nil
	case varEnum:
		switch v.K {
		case types.KindInt, types.KindUint:
			n, ok := v.ToInt64()
			if !ok || v.K == types.KindUint && v.Uint() > 1<<62 || n < 0 || n >= int64(len(d.enum)) {
				return "", nil, wrongValue()
			}
			return d.enum[n], nil, nil
		case types.KindDecimal, types.KindFloat:
			return "", nil, wrongType()
		case types.KindNull:
			return "", nil, wrongValue()
		}
		for _, e := range d.enum {
			if strings.EqualFold(e, v.String()) {
				return e, nil, nil
			}
		}
		return "", nil, wrongValue()
	case varSQLMode:
		if v.K == types.KindNull {
			return "", nil, wrongValue()
		}
		if v.K == types.KindDecimal || v.K == types.KindFloat {
			return "", nil, wrongType()
		}
		m, err := parseSQLMode(v.String())
		if bad, ok := err.(errBadSQLMode); ok {
			return "", nil, sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.name, bad.elem)
		}
		return m.String(), nil, nil
	default:
		if v.K == types.KindNull {
			return "", nil, nil
		}
		return v.String(), nil, nil
	}
}

// intSetting is the text of an integer setting, clamped into [lo, hi]:
// clamped says it was out of range; ok false means v is not an integer
// (a string, a fraction, a float, NULL: error 1232).
func intSetting(v types.Value, lo, hi int64) (text string, clamped, ok bool) {
	var n int64
	switch v.K {
	case types.KindInt:
		n = v.I
	case types.KindUint:
		if v.Uint() > uint64(hi) {
			return strconv.FormatInt(hi, 10), true, true
		}
		n = int64(v.Uint())
	case types.KindDecimal:
		// An integer literal too big for BIGINT UNSIGNED clamps; one
		// with a point (5.0 too) is the wrong type, as in MariaDB.
		if v.D.Exponent < 0 {
			return "", false, false
		}
		f := v.ToFloat()
		switch {
		case f >= float64(hi):
			return strconv.FormatInt(hi, 10), f > float64(hi), true
		case f <= float64(lo):
			return strconv.FormatInt(lo, 10), f < float64(lo), true
		}
		n = int64(f)
	default:
		return "", false, false
	}
	switch {
	case n < lo:
		return strconv.FormatInt(lo, 10), true, true
	case n > hi:
		return strconv.FormatInt(hi, 10), true, true
	}
	return strconv.FormatInt(n, 10), false, true
}

// settingLiteral reads a setting given as text (--set at open, ALTER
// SYSTEM SET, a DSN parameter) the way SET reads a literal: an integer is
// a number, TRUE and FALSE are 1 and 0, anything else a string.
func settingLiteral(text string) types.Value {
	t := strings.TrimSpace(text)
	switch strings.ToUpper(t) {
	case "TRUE":
		return types.IntValue(1)
	case "FALSE":
		return types.IntValue(0)
	}
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		return types.IntValue(n)
	}
	if u, err := strconv.ParseUint(t, 10, 64); err == nil {
		return types.UintValue(u)
	}
	return types.StringValue(text)
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
func likeMatch(pattern, s string) bool { return likeMatchEscape(pattern, s, '\\') }
