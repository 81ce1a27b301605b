package server

import (
	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/plrun/plrun/types"
)

// lobField fills the column definition of the TEXT, byte-string, ENUM
// and SET types as MariaDB sends them: byte strings in charset 63
// (binary) with BINARY_FLAG, their length in bytes; TEXT and BLOB as
// MYSQL_TYPE_BLOB with BLOB_FLAG, a TEXT's length four bytes a
// character (capped at LONGTEXT's 4 GB); ENUM and SET as
// MYSQL_TYPE_STRING with ENUM_FLAG / SET_FLAG; BIT(n) as MYSQL_TYPE_BIT
// of length n, its bytes the value (Value.String of a BIT value).
func lobField(f *mysql.Field, t types.ColType) {
	f.Charset = charsetUTF8MB4
	length := uint64(t.MaxBytes())
	switch t.Base {
	case types.TText:
		f.Type = mysql.MYSQL_TYPE_BLOB
		f.Flag |= mysql.BLOB_FLAG
		length = min(length*4, types.LongMax)
	case types.TBlob:
		f.Type = mysql.MYSQL_TYPE_BLOB
		f.Flag |= mysql.BLOB_FLAG | mysql.BINARY_FLAG
		f.Charset = charsetBinary
	case types.TBinary, types.TVarbinary:
		f.Type = mysql.MYSQL_TYPE_STRING
		if t.Base == types.TVarbinary {
			f.Type = mysql.MYSQL_TYPE_VAR_STRING
		}
		f.Flag |= mysql.BINARY_FLAG
		f.Charset = charsetBinary
	case types.TBit:
		f.Type = mysql.MYSQL_TYPE_BIT
		f.Flag |= mysql.UNSIGNED_FLAG
		f.Charset = charsetBinary
		length = uint64(t.Length)
	case types.TEnum, types.TSet:
		f.Type = mysql.MYSQL_TYPE_STRING
		if t.Base == types.TSet {
			f.Flag |= mysql.SET_FLAG
		} else {
			f.Flag |= mysql.ENUM_FLAG
		}
		length = uint64(t.MaxMemberLen()) * 4
	}
	f.ColumnLength = uint32(length)
}
