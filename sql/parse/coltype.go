package parse

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// ColType maps a parsed column type to a ColType.
func ColType(cd *ast.ColumnDef) (types.ColType, error) {
	ft := cd.Tp
	flen, dec := ft.GetFlen(), ft.GetDecimal()
	unsigned := mysql.HasUnsignedFlag(ft.GetFlag())
	t := types.ColType{Unsigned: unsigned}
	if st, ok, err := stringColType(cd); ok {
		return st, err
	}
	switch ft.GetType() {
	case mysql.TypeTiny:
		t.Base = types.TTinyInt
	case mysql.TypeShort:
		t.Base = types.TSmallInt
	case mysql.TypeInt24:
		t.Base = types.TMediumInt
	case mysql.TypeLong:
		t.Base = types.TInt
	case mysql.TypeLonglong:
		t.Base = types.TBigInt
	case mysql.TypeNewDecimal:
		t.Base = types.TDecimal
		if flen <= 0 {
			flen = 10
		}
		if dec < 0 {
			dec = 0
		}
		if flen > 65 {
			return t, sqlerr.New(sqlerr.ErTooBigPrecision, "Too-big precision %d specified for '%s'. Maximum is 65.", flen, cd.Name.Name.O)
		}
		if dec > 30 {
			return t, sqlerr.New(sqlerr.ErTooBigScale, "Too big scale %d specified for '%s'. Maximum is 30.", dec, cd.Name.Name.O)
		}
		if dec > flen {
			return t, sqlerr.New(sqlerr.ErMBiggerThanD, "For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '%s').", cd.Name.Name.O)
		}
		t.Length, t.Scale = flen, dec
		return t, nil
	case mysql.TypeFloat, mysql.TypeDouble:
		t.Base = types.TDouble
		if ft.GetType() == mysql.TypeFloat {
			t.Base = types.TFloat
		}
		if dec >= 0 {
			// FLOAT(M,D) / DOUBLE(M,D) round what they store to D
			// decimals and bound it by M digits; plrun does neither yet,
			// so it refuses them rather than store other values.
			return t, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support FLOAT(M,D) / DOUBLE(M,D) (column '%s'); use DECIMAL(M,D) or DOUBLE", cd.Name.Name.O)
		}
		return t, nil
	case mysql.TypeString:
		t.Base = types.TChar
		if flen < 0 {
			flen = 1
		}
		t.Length = flen
		return t, nil
	case mysql.TypeVarchar, mysql.TypeVarString:
		t.Base = types.TVarchar
		if flen < 0 {
			return t, sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax; VARCHAR needs a length for column '%s'", cd.Name.Name.O)
		}
		t.Length = flen
		return t, nil
	case mysql.TypeJSON:
		// MariaDB's JSON is LONGTEXT checked by JSON_VALID
		t.Base, t.JSON, t.Length = types.TText, true, types.LongMax
		return t, nil
	case mysql.TypeDatetime:
		t.Base = types.TDatetime
		if dec > 0 {
			t.Scale = dec
		}
		return t, nil
	case mysql.TypeTimestamp:
		t.Base = types.TTimestamp
		if dec > 0 {
			t.Scale = dec
		}
		return t, nil
	case mysql.TypeDate:
		t.Base = types.TDate
		return t, nil
	case mysql.TypeYear:
		// YEAR(2), which MariaDB keeps deprecated, the parser refuses
		t.Base = types.TYear
		return t, nil
	case mysql.TypeDuration:
		t.Base = types.TTime
		if dec > 0 {
			t.Scale = dec
		}
		return t, nil
	default:
		return t, sqlerr.New(sqlerr.ErNotSupportedYet, "This version of plrun doesn't yet support the type %s of column '%s'", strings.ToUpper(strings.TrimSuffix(ft.CompactStr(), "(-1)")), cd.Name.Name.O)
	}
	// The integer types: a display width as written (INT(11)).
	if flen > 0 && flen <= 255 {
		t.Length = flen
	}
	return t, nil
}

// TypeOf is a type as written in a declaration ("INT", "DECIMAL(12,2)",
// "VARCHAR(20)": a procedure's parameter or variable, a function's RETURNS)
// read as a column of that type is: ColType's rules and errors, no column
// options allowed.
func TypeOf(text string) (types.ColType, error) {
	st, err := ParseOne("CREATE TABLE t (c " + text + ")")
	if err != nil {
		return types.ColType{}, err
	}
	ct, ok := st.(*ast.CreateTableStmt)
	if !ok || len(ct.Cols) != 1 || len(ct.Cols[0].Options) > 0 {
		return types.ColType{}, sqlerr.New(sqlerr.ErParse, "You have an error in your SQL syntax near '%s'", text)
	}
	return ColType(ct.Cols[0])
}

// checksJSONValid reports whether the column carries CHECK
// (json_valid(itself)): LONGTEXT with it is how MariaDB declares JSON.
func checksJSONValid(cd *ast.ColumnDef) bool {
	for _, o := range cd.Options {
		if o.Tp != ast.ColumnOptionCheck {
			continue
		}
		f, ok := o.Expr.(*ast.FuncCallExpr)
		if !ok || f.FnName.L != "json_valid" || len(f.Args) != 1 {
			continue
		}
		if c, ok := f.Args[0].(*ast.ColumnNameExpr); ok && c.Name.Name.L == cd.Name.Name.L {
			return true
		}
	}
	return false
}
