package tabledef

import (
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// KeyPrefix checks the prefix length of a key part on col (0: none) as
// MariaDB does and returns the prefix the key keeps: 0 when none was given
// or when it covers a CHAR/VARCHAR/BINARY/VARBINARY column's whole length
// (SHOW CREATE TABLE then prints no prefix). A prefix on a column that
// holds no string, or longer than a CHAR/VARCHAR/BINARY/VARBINARY, is
// 1089. A plain key indexes the whole value, which finds the same rows a
// prefix index finds; a UNIQUE one holds the prefixes, which must differ
// (storage.IndexDef.UniquePrefix).
func KeyPrefix(col *storage.Column, length int) (int, error) {
	if length <= 0 {
		return 0, nil
	}
	t := col.Type
	switch t.Base {
	case types.TChar, types.TVarchar, types.TBinary, types.TVarbinary:
		if t.JSON || length > t.Length {
			return 0, wrongSubKey()
		}
		if length == t.Length {
			return 0, nil
		}
	case types.TText, types.TBlob:
		if t.JSON {
			return 0, wrongSubKey()
		}
	default:
		return 0, wrongSubKey()
	}
	return length, nil
}

func wrongSubKey() error {
	return sqlerr.New(sqlerr.ErWrongSubKey, "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys")
}
