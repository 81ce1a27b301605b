package sysvar

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// varKind is how a system variable's value is validated.
type varKind int

const (
	KindBool varKind = iota
	KindInt
	varString
	varEnum    // one of enum (case-insensitive), or its index
	varSQLMode // a comma list of sql_mode flags (sqlmode.go)
	KindFloat  // a non-negative number of seconds, kept with 6 decimals (long_query_time)
	varSet     // a comma list of enum's members, or their bits (log_output: logvars.go)
)

// varDef declares one system variable.
type Def struct {
	Name     string
	Kind     varKind
	Def      string
	min, max int64
	Global   bool // may be SET GLOBAL
	Session  bool // may be SET SESSION
	ReadOnly bool
	// SessionReadOnly: SET SESSION is error 1621 (only SET GLOBAL may
	// change it), as MariaDB's net_buffer_length.
	SessionReadOnly bool
	enum            []string // varEnum: the values, in index order
	// rejectOutOfRange: a value outside [min, max] is error 1231 instead
	// of MySQL's clamp with warning 1292. Used where a clamp could lower
	// durability (innodb_flush_log_at_trx_commit=7 would become 2).
	rejectOutOfRange bool
	// store names the variable whose value this one is another name for
	// (tx_isolation is transaction_isolation).
	store string
	// GlobalOnly: a MySQL variable without a session value, which a SET
	// without GLOBAL refuses (1229) as MySQL does, instead of setting it
	// globally as plrun's OceanBase and PolarDB settings take it.
	GlobalOnly bool
	// emptyIsNull: an empty value reads as NULL (@@ssl_ca without TLS
	// files, as MariaDB's).
	emptyIsNull bool
}

// Key is the name the variable's value is stored under.
func (d *Def) Key() string {
	if d.store != "" {
		return d.store
	}
	return d.Name
}

// isolationLevels are transaction_isolation's values, in MySQL's index
// order.
var isolationLevels = []string{"READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"}

// sysVars are the variables plrun knows. Names are lower case.
var Defs = func() map[string]*Def {
	defs := []*Def{
		{Name: "enable_early_lock_release", Kind: KindBool, Def: "OFF", Global: true},
		{Name: "_max_elr_dependent_trx_count", Kind: KindInt, Def: "0", min: 0, max: 1 << 31, Global: true},
		{Name: "ob_enable_pl_async_commit", Kind: KindBool, Def: "OFF", Global: true, Session: true},
		{Name: "hotspot", Kind: KindBool, Def: "OFF", Global: true},
		{Name: "hotspot_for_autocommit", Kind: KindBool, Def: "OFF", Global: true},
		{Name: "hotspot_update_max_wait_time", Kind: KindInt, Def: "100", min: 0, max: 1000000, Global: true},
		{Name: "hotspot_lock_type", Kind: KindBool, Def: "OFF", Global: true},
		{Name: "consensus_large_trx", Kind: KindBool, Def: "ON", Global: true},
		{Name: "consensus_max_log_size", Kind: KindInt, Def: "20971520", min: 0, max: 1 << 40, Global: true},
		{Name: "consensus_large_trx_split_size", Kind: KindInt, Def: "2097152", min: 64, max: 1 << 40, Global: true},
		{Name: "consensus_large_event_split_size", Kind: KindInt, Def: "2097152", min: 64, max: 1 << 40, Global: true},
		{Name: "innodb_lock_wait_timeout", Kind: KindInt, Def: "50", min: 1, max: 1073741824, Global: true, Session: true},
		{Name: "innodb_flush_log_at_trx_commit", Kind: KindInt, Def: "1", min: 0, max: 2, Global: true, rejectOutOfRange: true},
		{Name: "secure_file_priv", Kind: varString, Def: "", ReadOnly: true},
		// TLS (server/tls.go): set at start by `plrun serve` from its flags.
		{Name: "have_ssl", Kind: varString, Def: "DISABLED", ReadOnly: true},
		{Name: "ssl_ca", Kind: varString, Def: "", ReadOnly: true, emptyIsNull: true},
		{Name: "ssl_cert", Kind: varString, Def: "", ReadOnly: true, emptyIsNull: true},
		{Name: "ssl_key", Kind: varString, Def: "", ReadOnly: true, emptyIsNull: true},
		{Name: "tls_version", Kind: varString, Def: "TLSv1.2,TLSv1.3", ReadOnly: true},
		{Name: "require_secure_transport", Kind: KindBool, Def: "OFF", Global: true},
		{Name: "plrun_workers", Kind: KindInt, Def: "64", min: 1, max: 65536, Global: true},
		{Name: "plrun_log_sync_delay_us", Kind: KindInt, Def: "0", min: 0, max: 10000000, Global: true},
		{Name: "plrun_checkpoint_log_size", Kind: KindInt, Def: "67108864", min: 1 << 20, max: 1 << 40, Global: true},
		// plrun_cache_size bounds the memory for table data (storage/doc.go):
		// pebble's block cache and the rows kept in memory. Set at start.
		{Name: "plrun_cache_size", Kind: KindInt, Def: "134217728", min: 8 << 20, max: 1 << 44, ReadOnly: true},
		{Name: "long_query_time", Kind: KindFloat, Def: "10.000000", min: 0, max: 31536000, Global: true, Session: true},
		{Name: "max_execution_time", Kind: KindInt, Def: "0", min: 0, max: 1<<32 - 1, Global: true, Session: true},
		{Name: "plrun_max_statement_memory", Kind: KindInt, Def: "1073741824", min: 1 << 20, max: 1 << 50, Global: true, Session: true},
		{Name: "autocommit", Kind: KindBool, Def: "ON", Global: true, Session: true},
		{Name: "sql_mode", Kind: varSQLMode, Def: defaultSQLMode, Global: true, Session: true},
		{Name: "transaction_isolation", Kind: varEnum, enum: isolationLevels, Def: "REPEATABLE-READ", Global: true, Session: true},
		{Name: "tx_isolation", Kind: varEnum, enum: isolationLevels, Def: "REPEATABLE-READ", Global: true, Session: true, store: "transaction_isolation"},
		{Name: "version", Kind: varString, Def: "8.0.36-plrun", ReadOnly: true},
		{Name: "version_comment", Kind: varString, Def: "plrun", ReadOnly: true},
		{Name: "max_allowed_packet", Kind: KindInt, Def: "67108864", min: 1024, max: 1 << 30, Global: true, Session: true},
		{Name: "group_concat_max_len", Kind: KindInt, Def: "1048576", min: 4, max: 1<<32 - 1, Global: true, Session: true},
		{Name: "character_set_client", Kind: varString, Def: "utf8mb4", Global: true, Session: true},
		{Name: "character_set_connection", Kind: varString, Def: "utf8mb4", Global: true, Session: true},
		{Name: "character_set_results", Kind: varString, Def: "utf8mb4", Global: true, Session: true},
		{Name: "character_set_server", Kind: varString, Def: "utf8mb4", Global: true, Session: true},
		{Name: "collation_connection", Kind: varString, Def: "utf8mb4_general_ci", Global: true, Session: true},
		{Name: "collation_server", Kind: varString, Def: "utf8mb4_general_ci", Global: true, Session: true},
		// Every database is utf8mb4 (the mysql client's `status` reads these).
		// character_set_database may be set (mariadb-import sets binary):
		// it is how LOAD DATA reads a file that names no CHARACTER SET.
		{Name: "character_set_database", Kind: varString, Def: "utf8mb4", Global: true, Session: true},
		{Name: "collation_database", Kind: varString, Def: "utf8mb4_general_ci", ReadOnly: true},
		{Name: "time_zone", Kind: varString, Def: "SYSTEM", Global: true, Session: true},
		{Name: "system_time_zone", Kind: varString, Def: "UTC", ReadOnly: true},
		{Name: "lower_case_table_names", Kind: KindInt, Def: "0", ReadOnly: true},
		{Name: "interactive_timeout", Kind: KindInt, Def: "28800", min: 1, max: 31536000, Global: true, Session: true},
		// A recursive CTE stops after this many iterations, with warning 1931.
		{Name: "max_recursive_iterations", Kind: KindInt, Def: "1000", min: 0, max: 4294967295, Global: true, Session: true},
		{Name: "max_sp_recursion_depth", Kind: KindInt, Def: "0", min: 0, max: 255, Global: true, Session: true},
		{Name: "wait_timeout", Kind: KindInt, Def: "28800", min: 1, max: 31536000, Global: true, Session: true},
		{Name: "net_write_timeout", Kind: KindInt, Def: "60", min: 1, max: 31536000, Global: true, Session: true},
		{Name: "sql_select_limit", Kind: KindInt, Def: "18446744073709551615", min: 0, max: 1<<63 - 1, Global: true, Session: true},
		{Name: "sql_auto_is_null", Kind: KindBool, Def: "OFF", Global: true, Session: true},
		{Name: "init_connect", Kind: varString, Def: "", Global: true},
		{Name: "license", Kind: varString, Def: "Apache-2.0", ReadOnly: true},
		{Name: "performance_schema", Kind: KindBool, Def: "OFF", ReadOnly: true},
		{Name: "query_cache_size", Kind: KindInt, Def: "0", min: 0, max: 0, Global: true},
		{Name: "query_cache_type", Kind: varEnum, enum: []string{"OFF", "ON", "DEMAND"}, Def: "OFF", Global: true, Session: true},
		{Name: "div_precision_increment", Kind: KindInt, Def: "4", ReadOnly: true},
		{Name: "auto_increment_increment", Kind: KindInt, Def: "1", ReadOnly: true},
		{Name: "auto_increment_offset", Kind: KindInt, Def: "1", ReadOnly: true},
		{Name: "foreign_key_checks", Kind: KindBool, Def: "ON", Global: true, Session: true},
		{Name: "unique_checks", Kind: KindBool, Def: "ON", Global: true, Session: true},
		{Name: "sql_safe_updates", Kind: KindBool, Def: "OFF", Global: true, Session: true},
		{Name: "net_buffer_length", Kind: KindInt, Def: "16384", min: 1024, max: 1048576, Global: true, Session: true, SessionReadOnly: true},
		{Name: "transaction_read_only", Kind: KindBool, Def: "OFF", Global: true, Session: true},
		{Name: "tx_read_only", Kind: KindBool, Def: "OFF", Global: true, Session: true, store: "transaction_read_only"},
		{Name: "lock_wait_timeout", Kind: KindInt, Def: "86400", min: 0, max: 31536000, Global: true, Session: true},
		{Name: "sql_quote_show_create", Kind: KindBool, Def: "ON", Global: true, Session: true},
		{Name: "sql_notes", Kind: KindBool, Def: "ON", Global: true, Session: true},
		{Name: "last_insert_id", Kind: KindInt, Def: "0", min: 0, max: 1<<63 - 1, Session: true},
	}
	m := make(map[string]*Def, len(defs))
	for _, d := range defs {
		m[d.Name] = d
	}
	return m
}()

// globalVars holds the global values; reads are on hot paths (ELR, flush
// mode), so the hot ones are mirrored in atomics by the Engine.
type Globals struct {
	Mu   sync.RWMutex
	Vals map[string]string
	// origins are where the values came from (origin.go), by key; a key
	// absent is COMPILED. started is when the globals were made.
	origins map[string]Origin
	started time.Time
}

func NewGlobals() *Globals {
	g := &Globals{Vals: make(map[string]string, len(Defs)), origins: map[string]Origin{}, started: time.Now()}
	for _, d := range Defs {
		g.Vals[d.Key()] = d.Def
	}
	return g
}

func (g *Globals) Get(name string) string {
	g.Mu.RLock()
	defer g.Mu.RUnlock()
	return g.Vals[name]
}

// normalizeVar validates value for d and returns its canonical text, and
// the warning MySQL gives when it clamps an out-of-range number (nil if
// none). Numbers must come as numbers: a string for a numeric variable is
// error 1232, as in MariaDB.
func Normalize(d *Def, v types.Value) (string, *sqlerr.Note, error) {
	wrongValue := func() error {
		text := v.String()
		if v.K == types.KindNull {
			text = "NULL"
		}
		return sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.Name, text)
	}
	wrongType := func() error {
		return sqlerr.New(sqlerr.ErWrongTypeForVar, "Incorrect argument type to variable '%s'", d.Name)
	}
	switch d.Kind {
	case KindBool:
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
	case KindInt:
		n, clamped, ok := intSetting(v, d.min, d.max)
		if !ok {
			return "", nil, wrongType()
		}
		if clamped {
			if d.rejectOutOfRange {
				return "", nil, wrongValue()
			}
			return n, &sqlerr.Note{Level: "Warning", Code: sqlerr.ErTruncatedWrongValue,
				Message: fmt.Sprintf("Truncated incorrect %s value: '%s'", d.Name, v.String())}, nil
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
	case KindFloat:
		var f float64
		switch v.K {
		case types.KindInt, types.KindUint, types.KindDecimal, types.KindFloat:
			f = v.ToFloat()
		default: // a string or NULL: 1232, as MariaDB
			return "", nil, wrongType()
		}
		clamped := f < float64(d.min) || f > float64(d.max)
		f = math.Max(float64(d.min), math.Min(float64(d.max), f))
		text := strconv.FormatFloat(f, 'f', 6, 64)
		if clamped {
			return text, &sqlerr.Note{Level: "Warning", Code: sqlerr.ErTruncatedWrongValue,
				Message: fmt.Sprintf("Truncated incorrect %s value: '%s'", d.Name, v.String())}, nil
		}
		return text, nil, nil
	case varSet:
		text, err := normalizeSet(d, v)
		return text, nil, err
	case varSQLMode:
		if v.K == types.KindNull {
			return "", nil, wrongValue()
		}
		if v.K == types.KindDecimal || v.K == types.KindFloat {
			return "", nil, wrongType()
		}
		m, err := ParseSQLMode(v.String())
		if bad, ok := err.(errBadSQLMode); ok {
			return "", nil, sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.Name, bad.elem)
		}
		return m.String(), nil, nil
	default:
		if v.K == types.KindNull {
			return "", nil, nil
		}
		switch d.Key() {
		case "character_set_database":
			return strings.ToLower(v.String()), nil, nil // a character set's name, as MariaDB shows it
		case "time_zone":
			if _, err := ParseTimeZone(v.String()); err == nil {
				return CanonicalTimeZone(v.String()), nil, nil
			}
		case "character_set_client", "character_set_connection", "character_set_results", "collation_connection":
			if strings.EqualFold(v.String(), "binary") {
				return "binary", nil, nil
			}
			return CanonicalCharset(v.String()), nil, nil
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
// SYSTEM SET, a DSN parameter, an option file, plrun-auto.cnf) the way SET
// reads a literal: an integer is a number, a decimal like 2.5 a DECIMAL
// (long_query_time, which plrun-auto.cnf keeps as 2.500000), TRUE and
// FALSE are 1 and 0, anything else a string.
func Literal(text string) types.Value {
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
	if isDecimalLiteral(t) {
		if d, _, err := apd.NewFromString(t); err == nil {
			return types.DecimalValue(d)
		}
	}
	return types.StringValue(text)
}

// isDecimalLiteral is [-+]digits.digits, as SQL writes a DECIMAL literal.
func isDecimalLiteral(t string) bool {
	t = strings.TrimLeft(t, "+-")
	whole, frac, ok := strings.Cut(t, ".")
	digits := func(s string) bool { return strings.Trim(s, "0123456789") == "" }
	return ok && whole+frac != "" && digits(whole) && digits(frac)
}

func Lookup(name string) (*Def, error) {
	d, ok := Defs[strings.ToLower(name)]
	if !ok {
		return nil, sqlerr.New(sqlerr.ErUnknownSystemVar, "Unknown system variable '%s'", name)
	}
	return d, nil
}

// varValue turns a stored variable text into the value SELECT @@x returns.
func ValueOf(d *Def, s string) types.Value {
	switch d.Kind {
	case KindInt:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return types.IntValue(n)
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return types.UintValue(u)
		}
	case KindBool:
		if s == "ON" {
			return types.IntValue(1)
		}
		return types.IntValue(0)
	case varString:
		if s == "" && (d.Name == "character_set_results" || d.emptyIsNull) {
			return types.Null // character_set_results: no conversion of results
		}
	case KindFloat:
		if d, _, err := apd.NewFromString(s); err == nil {
			return types.DecimalValue(d)
		}
	}
	return types.StringValue(s)
}

func SortedNames() []string {
	names := make([]string, 0, len(Defs))
	for n := range Defs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
