package parse

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// The string types beyond CHAR and VARCHAR: byte strings (BINARY,
// VARBINARY, the BLOBs, and any string type declared CHARACTER SET
// binary), the four TEXT sizes, ENUM and SET; and BIT(n).

// stringColType maps those types; ok is false for every other type.
func stringColType(cd *ast.ColumnDef) (t types.ColType, ok bool, err error) {
	ft := cd.Tp
	flen := ft.GetFlen()
	binary := ft.GetCharset() == "binary"
	switch ft.GetType() {
	case mysql.TypeString:
		if !binary {
			return t, false, nil
		}
		t.Base, t.Length = types.TBinary, max(flen, 1)
		if flen > 255 {
			return t, true, sqlerr.New(sqlerr.ErTooBigFieldLength, "Column length too big for column '%s' (max = 255); use BLOB or TEXT instead", cd.Name.Name.O)
		}
	case mysql.TypeVarchar, mysql.TypeVarString:
		if !binary {
			return t, false, nil
		}
		t.Base, t.Length = types.TVarbinary, flen
		if flen < 0 {
			return t, true, sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; VARBINARY needs a length for column '%s'", cd.Name.Name.O)
		}
		if flen > 65532 {
			return t, true, sqlerr.New(sqlerr.ErTooBigFieldLength, "Column length too big for column '%s' (max = 65532); use BLOB or TEXT instead", cd.Name.Name.O)
		}
	case mysql.TypeBlob, mysql.TypeTinyBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob:
		if !binary && flen > 0 {
			flen *= 4 // TEXT(n) is n utf8mb4 characters
		}
		t.Base, t.Length = types.TText, lobSize(ft.GetType(), flen)
		if binary {
			t.Base = types.TBlob
		} else if ft.GetType() == mysql.TypeLongBlob && checksJSONValid(cd) {
			// MariaDB's JSON, as SHOW CREATE TABLE and mysqldump write it
			t.JSON = true
		}
	case mysql.TypeEnum, mysql.TypeSet:
		elems := trimMembers(ft.GetElems())
		t.Base, t.Members = types.TEnum, types.MembersOf(elems)
		if ft.GetType() == mysql.TypeSet {
			t.Base = types.TSet
			if len(elems) > 64 {
				return t, true, sqlerr.New(sqlerr.ErTooBigSet, "Too many strings for column %s and SET", cd.Name.Name.O)
			}
		}
		word := map[bool]string{true: "SET", false: "ENUM"}[t.Base == types.TSet]
		for i, e := range elems {
			if strings.IndexByte(e, 0) >= 0 || t.Base == types.TSet && strings.IndexByte(e, ',') >= 0 {
				// NUL ends a member in the catalog's Members; a SET member
				// with a comma is MariaDB's error 1367
				if t.Base == types.TSet && strings.IndexByte(e, ',') >= 0 {
					return t, true, sqlerr.New(sqlerr.ErIllegalValueForType, "Illegal set '%s' value found during parsing", e)
				}
				return t, true, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support a NUL byte in an %s member", word)
			}
			for _, f := range elems[:i] {
				if types.CompareStrings(e, f) == 0 {
					// non-strict MariaDB makes this a Note and keeps both;
					// plrun always refuses it
					return t, true, sqlerr.New(sqlerr.ErDuplicatedValueInType, "Column '%s' has duplicated value '%s' in %s", cd.Name.Name.O, f, word)
				}
			}
		}
		if binary {
			return t, true, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support '%s CHARACTER SET binary'", ft.String())
		}
	case mysql.TypeBit:
		t.Base, t.Length = types.TBit, max(flen, 1)
		if flen > 64 {
			return t, true, sqlerr.New(sqlerr.ErTooBigDisplaywidth, "Display width out of range for '%s' (max = 64)", cd.Name.Name.O)
		}
	default:
		return t, false, nil
	}
	return t, true, nil
}

// lobSize is the maximum byte length of a TEXT or BLOB: the declared
// size's, or for TEXT(n)/BLOB(n) the smallest size that holds n.
func lobSize(tp byte, flen int) int {
	switch tp {
	case mysql.TypeTinyBlob:
		return types.TinyMax
	case mysql.TypeMediumBlob:
		return types.MediumMax
	case mysql.TypeLongBlob:
		return types.LongMax
	}
	return types.SizedLOB(flen)
}

// trimMembers drops the trailing spaces MySQL removes from ENUM and SET
// members when the table is created.
func trimMembers(elems []string) []string {
	out := make([]string, len(elems))
	for i, e := range elems {
		for len(e) > 0 && e[len(e)-1] == ' ' {
			e = e[:len(e)-1]
		}
		out[i] = e
	}
	return out
}
