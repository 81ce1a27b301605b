package expr

import (
	"unicode/utf8"

	"github.com/plrun/plrun/types"
)

// Result types of expressions as MariaDB 10.11 derives them: what a
// client reads in a result column's definition (type, length, decimals,
// NOT_NULL) and what CREATE TABLE ... SELECT gives the column. The rules
// are MariaDB's Item attributes: an integer result's length is its
// digits plus a sign, and it is INT when that length is at most 9 digits
// (type_handler_long_or_longlong), else BIGINT; DECIMAL results carry
// precision and scale; a comparison is INT(1). The figures are pinned by
// testdata/server/coltypes, MariaDB's own answers.

// TBool is the type of comparisons and logical operators: INT, length 1.
var TBool = types.ColType{Base: types.TInt, Length: 1}

// notFixedDec is a DOUBLE's Scale when its Length is set and its
// decimals are not fixed (MariaDB's NOT_FIXED_DEC).
const notFixedDec = 31

// maxDecimalPrecision and maxDecimalScale are DECIMAL's limits.
const (
	maxDecimalPrecision = 65
	maxDecimalScale     = 38
)

// intResult is an integer result of the given digits: INT up to 9
// characters, BIGINT above, as MariaDB chooses.
func intResult(digits int, unsigned bool) types.ColType {
	length := digits
	if !unsigned {
		length++ // the sign
	}
	return intOfLength(length, unsigned)
}

// IntOfLength is the integer type MariaDB gives a result of length
// characters: INT up to 9, else BIGINT.
func IntOfLength(length int, unsigned bool) types.ColType { return intOfLength(length, unsigned) }

func intOfLength(length int, unsigned bool) types.ColType {
	base := types.TBigInt
	if length <= 9 {
		base = types.TInt
	}
	return types.ColType{Base: base, Length: length, Unsigned: unsigned}
}

// precision is how many decimal digits e's values have (MariaDB's
// decimal_precision); a literal integer counts its own digits. An integer
// column counts its type's digits, not its display width: INT(1) holds
// ten, and i + i over it must not be an INT(3) whose values pass INT
// (MariaDB sizes it by the width).
func precision(e *Expr) int {
	switch {
	case e.literal && e.Type.IsInteger():
		return e.Type.Length
	case e.negLiteral && e.Type.IsInteger():
		return e.Type.Length - 1
	case e.Col >= 0 && e.Type.IsInteger():
		return IntDigits(e.Type)
	}
	return typePrecision(e.Type)
}

// Precision is precision for the aggregates (sql/aggregate).
func Precision(e *Expr) int { return precision(e) }

// constValue is the value of a literal, signed or not.
func constValue(e *Expr) (types.Value, bool) {
	if !e.literal && !e.negLiteral {
		return types.Null, false
	}
	v, err := e.Fn(&Ctx{})
	return v, err == nil
}

func typePrecision(t types.ColType) int {
	switch {
	case t.IsInteger():
		if t.Length > 0 {
			return max(t.Length-boolInt(!t.Unsigned), 1)
		}
		return IntDigits(t)
	case t.Base == types.TDecimal:
		if t.Length > 0 {
			return t.Length
		}
		return maxDecimalPrecision
	case t.Base == types.TDate:
		return 8 // in arithmetic a date is the number YYYYMMDD
	case t.Base == types.TDatetime, t.Base == types.TTimestamp:
		return 14 // YYYYMMDDhhmmss
	case t.Base == types.TTime:
		return 6
	}
	return maxDecimalPrecision
}

// scaleOf is the DECIMAL scale e contributes to arithmetic (0 for integers).
func scaleOf(t types.ColType) int {
	if t.Base == types.TDecimal {
		return t.Scale
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// arithResult is the type of a op b, as MariaDB's Item_func_plus, minus,
// mul, div, int_div and mod derive it.
func arithResult(op types.Op, a, b *Expr) types.ColType {
	at, bt := a.Type, b.Type
	approx := func(t types.ColType) bool {
		// an ENUM or SET is its number: integer arithmetic
		return t.Base == types.TDouble || t.Base == types.TFloat || t.IsString() && t.Base != types.TEnum && t.Base != types.TSet
	}
	if op == types.OpIntDiv {
		// The integer part of the dividend, no room for a sign.
		return intOfLength(max(precision(a)-scaleOf(at), 1), at.Unsigned && !approx(at))
	}
	if approx(at) || approx(bt) {
		return tDouble
	}
	if op != types.OpDiv && at.Base != types.TDecimal && bt.Base != types.TDecimal && (at.Base == 0 || bt.Base == 0) {
		return tUnknown // NULL or a ? of no type yet
	}
	pa, pb := precision(a), precision(b)
	sa, sb := scaleOf(at), scaleOf(bt)
	unsigned := at.Unsigned || bt.Unsigned
	if op == types.OpDiv || at.Base == types.TDecimal || bt.Base == types.TDecimal {
		var prec, scale int
		switch op {
		case types.OpAdd, types.OpSub:
			scale = max(sa, sb)
			prec = max(pa-sa, pb-sb) + scale + 1
		case types.OpMul:
			scale = min(sa+sb, maxDecimalScale)
			prec = pa + pb
		case types.OpDiv:
			scale = min(sa+types.DivPrecisionIncrement, maxDecimalScale)
			prec = pa + sb + types.DivPrecisionIncrement
		case types.OpMod:
			scale = max(sa, sb)
			prec = max(pa-sa, pb-sb) + scale
			unsigned = at.Unsigned
		}
		return types.ColType{Base: types.TDecimal, Length: min(prec, maxDecimalPrecision), Scale: scale, Unsigned: unsigned && op != types.OpDiv}
	}
	switch op {
	case types.OpAdd, types.OpSub:
		return intResult(max(pa, pb)+1, unsigned)
	case types.OpMul:
		return intResult(pa+pb, unsigned)
	case types.OpMod:
		return intResult(max(pa, pb), at.Unsigned)
	}
	return tUnknown
}

// negateResult is the type of -a: one character more than a, signed.
func negateResult(a *Expr) types.ColType {
	t := a.Type
	switch {
	case a.literal && t.IsInteger():
		return intOfLength(precision(a)+1, false)
	case t.IsInteger():
		return intOfLength(intLength(t)+1, false)
	case t.Base == types.TDecimal:
		t.Unsigned = false
		t.Length = min(t.Length+1, maxDecimalPrecision) // MariaDB: one character more
		return t
	}
	return t
}

// intLength is the characters an integer type prints in: its declared
// or derived length, else the type's default width.
func intLength(t types.ColType) int {
	if t.Length > 0 {
		return t.Length
	}
	return IntDigits(t) + boolInt(!t.Unsigned)
}

// literalType is the type of a literal written in the statement: its
// own digits or characters, as MariaDB's Item_int, Item_decimal and
// Item_string measure them.
func literalType(v types.Value) types.ColType {
	switch v.K {
	case types.KindInt:
		n := digitCount(uint64(abs64(v.I)))
		if v.I < 0 {
			n++
		}
		return intOfLength(n, false)
	case types.KindUint:
		u := uint64(v.I)
		t := intOfLength(digitCount(u), u > 1<<63-1)
		if u > 1<<31-1 {
			t.Base = types.TBigInt
		}
		return t
	case types.KindString:
		return types.ColType{Base: types.TVarchar, Length: utf8.RuneCountInString(v.S)}
	}
	return TypeOfValue(v)
}

func abs64(i int64) int64 {
	if i < 0 {
		return -i // -2^63 stays negative; uint64 of it is 2^63, right
	}
	return i
}

func digitCount(u uint64) int {
	n := 1
	for u >= 10 {
		u /= 10
		n++
	}
	return n
}

// UnifyExprs is unifyExprs for the control functions (sql/funcs).
func UnifyExprs(es ...*Expr) types.ColType { return unifyExprs(es...) }

// unifyExprs is unifyTypes over expressions: a literal integer counts
// its own digits.
func unifyExprs(es ...*Expr) types.ColType {
	var u unifier
	for _, e := range es {
		if e.Type.Base == 0 && !e.literal {
			// A ? or user variable: no type to aggregate, but its
			// value may be as long as a VARCHAR(255).
			u.chars = max(u.chars, TVarchar.Length)
		}
		u.add(e.Type, precision(e))
	}
	return u.result()
}

// unifier aggregates the types of IF, IFNULL, COALESCE, CASE and set
// operation columns (MariaDB's aggregate_for_result): strings win and
// are as long as the longest argument printed; then DOUBLE; then DECIMAL
// wide enough for every argument's integer part and scale; integers take
// the widest type and the most digits; times the widest with the most
// fractional digits. NULL (no type) takes no part.
type unifier struct {
	out            types.ColType
	intPart, scale int // of the exact numeric arguments
	chars          int // the longest argument printed
	unsigned       bool
	n              int
}

func (u *unifier) add(t types.ColType, prec int) {
	if t.Base == 0 {
		return
	}
	u.chars = max(u.chars, charLength(t))
	sc := scaleOf(t)
	if u.n == 0 {
		u.out, u.unsigned = t, t.Unsigned
	}
	u.n++
	u.unsigned = u.unsigned && t.Unsigned
	u.intPart, u.scale = max(u.intPart, prec-sc), max(u.scale, sc)
	o := u.out
	switch {
	case t.IsString() || o.IsString():
		u.out = types.ColType{Base: types.TVarchar}
		if t.Base == types.TText || o.Base == types.TText {
			u.out.Base = types.TText
		}
	case isApprox(t) || isApprox(o):
		u.out = types.ColType{Base: types.TDouble, Length: 22, Scale: notFixedDec} // MariaDB: a DOUBLE column's length
	case t.Base == types.TDecimal || o.Base == types.TDecimal:
		if isNumber(t) && isNumber(o) {
			u.out = types.ColType{Base: types.TDecimal}
		} else {
			u.out = types.ColType{Base: types.TVarchar}
		}
	case t.IsInteger() && o.IsInteger() && t.Unsigned != o.Unsigned:
		// No integer type holds both ranges.
		u.out = types.ColType{Base: types.TDecimal}
	case t.IsInteger() && o.IsInteger():
		u.out = types.ColType{Base: max(t.Base, o.Base)}
	case isTime(t) && isTime(o):
		if t.Base != o.Base {
			u.out = types.ColType{Base: types.TDatetime}
		}
		u.out.Scale = max(t.Scale, o.Scale)
	case t.Base != o.Base:
		u.out = types.ColType{Base: types.TVarchar}
	}
}

func (u *unifier) result() types.ColType {
	t := u.out
	switch {
	case t.IsString():
		if t.Base == types.TVarchar {
			t.Length = u.chars
		} else {
			t.Length = 65535
		}
	case t.Base == types.TDecimal:
		t.Scale = min(u.scale, maxDecimalScale)
		t.Length = min(u.intPart+t.Scale, maxDecimalPrecision)
		t.Unsigned = u.unsigned
	case t.IsInteger():
		t.Unsigned = u.unsigned
		t.Length = u.intPart + boolInt(!u.unsigned)
	}
	return t
}

func isApprox(t types.ColType) bool { return t.Base == types.TDouble || t.Base == types.TFloat }
func isNumber(t types.ColType) bool {
	return t.IsInteger() || t.Base == types.TDecimal || isApprox(t)
}
func isTime(t types.ColType) bool {
	return t.Base == types.TDatetime || t.Base == types.TTimestamp || t.Base == types.TDate || t.Base == types.TTime
}

// exprChars is how many characters e's values print in at most: a ? or
// a user variable, of no type until it runs, counts as VARCHAR(255), as
// plrun has always described it; NULL counts nothing.
func exprChars(e *Expr) int {
	if e.Type.Base == 0 && !e.literal {
		return TVarchar.Length
	}
	return charLength(e.Type)
}

// charLength is how many characters a value of t prints in at most.
func charLength(t types.ColType) int {
	switch {
	case t.Base == types.TText && t.Length == 0:
		return 65535
	case t.IsString():
		return t.Length
	case t.IsInteger():
		return intLength(t)
	case t.Base == types.TDecimal:
		return typePrecision(t) + boolInt(t.Scale > 0) + boolInt(!t.Unsigned)
	case isApprox(t):
		return 22
	case t.Base == types.TDate:
		return 10
	case t.Base == types.TDatetime, t.Base == types.TTimestamp:
		return 19 + boolInt(t.Scale > 0) + t.Scale
	case t.Base == types.TTime:
		return 10 + boolInt(t.Scale > 0) + t.Scale
	}
	return 0
}
