package sysvar

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// Check refuses the values plrun accepts as MariaDB's but cannot honour,
// so that no SET is a silent no-op: each variable here does what its
// accepted values say (or, for the refused ones, nothing is stored).
// global says the value is for SET GLOBAL (some refusals differ).
func Check(d *Def, text string) error {
	wrong := func() error {
		return sqlerr.New(sqlerr.ErWrongValueForVar, "Variable '%s' can't be set to the value of '%s'", d.Name, text)
	}
	if err := checkLogVar(d, text); err != nil {
		return err
	}
	switch d.Key() {
	case "transaction_isolation":
		return CheckIsolation(d.Name, text)
	case "character_set_database":
		// How LOAD DATA reads a file naming no CHARACTER SET.
		switch strings.ToLower(text) {
		case "utf8mb4", "utf8", "utf8mb3", "binary", "ascii", "latin1":
		default:
			return sqlerr.New(sqlerr.ErUnknownCharacterSet, "Unknown character set: '%s'", text)
		}
	case "sql_quote_show_create":
		// mysqldump sets it to 1; SHOW CREATE always quotes names.
		if text == "OFF" {
			return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support 'sql_quote_show_create = OFF' (SHOW CREATE TABLE always quotes names)")
		}
	case "time_zone":
		if _, err := ParseTimeZone(text); err != nil {
			return err
		}
	case "character_set_client", "character_set_connection", "character_set_results":
		// Every text plrun sends and reads is UTF-8; utf8mb3 is its BMP
		// subset. Another charset would need conversion plrun lacks.
		// character_set_results NULL ("") asks for no conversion, and
		// binary asks the same (mysqldump sets it around SHOW CREATE).
		if (text == "" || strings.EqualFold(text, "binary")) && d.Key() == "character_set_results" {
			return nil
		}
		if _, ok := utf8Charsets[strings.ToLower(text)]; !ok {
			return wrong()
		}
	case "character_set_server":
		if !strings.EqualFold(text, "utf8mb4") {
			return wrong()
		}
	case "collation_connection", "collation_server":
		// plrun compares text as utf8mb4_general_ci only.
		if _, ok := generalCollations[strings.ToLower(text)]; !ok || d.Key() == "collation_server" && !strings.EqualFold(text, "utf8mb4_general_ci") {
			return wrong()
		}
	case "sql_auto_is_null":
		// Not built: ON would change which rows a statement returns.
		if text == "ON" {
			return wrong()
		}
	case "init_connect":
		// Not run at login: a non-empty value would be ignored.
		if text != "" {
			return wrong()
		}
	case "query_cache_type":
		// plrun has no query cache (SET SESSION: CheckSession's 1925).
		if text != "OFF" {
			return sqlerr.New(sqlerr.ErQueryCacheDisabled, "Query cache is disabled; restart the server with query_cache_type=1 to enable it")
		}
	}
	return nil
}

// CheckSession is Check for SET SESSION, whose refusals MariaDB words
// differently for some variables.
func CheckSession(d *Def, text string) error {
	if d.Key() == "query_cache_type" && text != "OFF" {
		return sqlerr.New(sqlerr.ErQueryCacheGloballyDisabled, "Query cache is globally disabled and you can't enable it only for this session")
	}
	return Check(d, text)
}

// utf8Charsets are the client charsets plrun honours, by the name
// @@character_set_* then shows (utf8 is utf8mb3's old name, as in MariaDB).
var utf8Charsets = map[string]string{"utf8mb4": "utf8mb4", "utf8": "utf8mb3", "utf8mb3": "utf8mb3"}

// generalCollations are the connection collations plrun compares by.
var generalCollations = map[string]string{
	"utf8mb4_general_ci": "utf8mb4_general_ci",
	"utf8_general_ci":    "utf8mb3_general_ci",
	"utf8mb3_general_ci": "utf8mb3_general_ci",
}

// CanonicalCharset is the name SET NAMES and SET character_set_* store
// for an accepted charset or collation (utf8 becomes utf8mb3).
func CanonicalCharset(name string) string {
	if c, ok := utf8Charsets[strings.ToLower(name)]; ok {
		return c
	}
	if c, ok := generalCollations[strings.ToLower(name)]; ok {
		return c
	}
	return name
}

// CheckIsolation refuses the levels plrun does not implement (see
// txn.Isolation): READ UNCOMMITTED would let a not-yet-durable, even
// rolled-back, write leave the engine; SERIALIZABLE needs shared locks.
func CheckIsolation(name, level string) error {
	switch level {
	case "READ-UNCOMMITTED", "SERIALIZABLE":
		return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support '%s' isolation (%s): use READ-COMMITTED or REPEATABLE-READ", level, name)
	}
	return nil
}
