package sysvar

import "github.com/plrun/plrun/sqlerr"

// checkSetting refuses values plrun accepts as MySQL's but does not
// implement (transaction_isolation's READ-UNCOMMITTED and SERIALIZABLE).
func Check(d *Def, text string) error {
	if d.Key() == "transaction_isolation" {
		return CheckIsolation(d.Name, text)
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
