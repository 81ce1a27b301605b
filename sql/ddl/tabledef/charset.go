package tabledef

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sqlerr"
)

// CheckStoredCharset refuses a character set or collation for stored data
// other than the one plrun stores and compares by: utf8mb4 with
// utf8mb4_general_ci (and binary for binary types). Accepting latin1 or
// utf8mb4_bin and storing utf8mb4 compared case-insensitively would be a
// declaration silently ignored; what plrun cannot honour is refused.
func CheckStoredCharset(charset, collate string) error {
	cs, co := strings.ToLower(charset), strings.ToLower(collate)
	switch cs {
	case "", "utf8mb4":
	case "binary":
		if co == "" || co == "binary" {
			return nil
		}
	default:
		return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support CHARACTER SET '%s' for stored data (plrun stores utf8mb4)", charset)
	}
	switch co {
	case "", "utf8mb4_general_ci":
		return nil
	}
	return sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support COLLATE '%s' for stored data (plrun compares as utf8mb4_general_ci)", collate)
}

// CheckColumnCharset checks a column definition's CHARACTER SET and
// COLLATE. A JSON column may say utf8mb4_bin: that is how MariaDB prints
// (and a dump declares) JSON, LONGTEXT with a json_valid CHECK.
func CheckColumnCharset(cd *ast.ColumnDef, json bool) error {
	if json {
		return nil
	}
	if cd.Tp != nil {
		if err := CheckStoredCharset(cd.Tp.GetCharset(), cd.Tp.GetCollate()); err != nil {
			return err
		}
		if binaryCollation(cd) {
			// CHAR(n) BINARY is the character set's _bin collation, not a
			// byte string
			return CheckStoredCharset("", "utf8mb4_bin")
		}
	}
	for _, o := range cd.Options {
		if o.Tp == ast.ColumnOptionCollate {
			if err := CheckStoredCharset("", o.StrValue); err != nil {
				return err
			}
		}
	}
	return nil
}

// binaryCollation reports a character type declared with the BINARY
// attribute (CHAR(3) BINARY, TEXT BINARY): MySQL's shorthand for the
// _bin collation.
func binaryCollation(cd *ast.ColumnDef) bool {
	ft := cd.Tp
	if ft.GetCharset() == "binary" || !mysql.HasBinaryFlag(ft.GetFlag()) {
		return false
	}
	switch ft.GetType() {
	case mysql.TypeString, mysql.TypeVarchar, mysql.TypeVarString, mysql.TypeTinyBlob, mysql.TypeBlob,
		mysql.TypeMediumBlob, mysql.TypeLongBlob, mysql.TypeEnum, mysql.TypeSet:
		return true
	}
	return false
}
