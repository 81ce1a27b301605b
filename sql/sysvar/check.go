package sysvar

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// checkSetting refuses values plrun accepts as MySQL's but does not
// implement (transaction_isolation's READ-UNCOMMITTED and SERIALIZABLE).
func Check(d *Def, text string) error {
	switch d.Key() {
	case "transaction_isolation":
		return CheckIsolation(d.Name, text)
	case "character_set_database":
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
	}
	return nil
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
