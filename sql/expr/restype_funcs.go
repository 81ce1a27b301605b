package expr

import (
	"github.com/plrun/plrun/types"
)

// describeFunc gives a built-in function's result the length and
// nullability MariaDB describes it by, once its family compiled it: the
// families say how to compute a value; what a client is told about it is
// kept here, in one table, beside the rules of restype.go.
func describeFunc(f *Call, e *Expr) {
	if !keepsNotNull[f.Name] {
		// MariaDB lets most functions be NULL even over NOT NULL
		// arguments (a bad date, a result past max_allowed_packet).
		e.NotNull = false
	}
	if f.Name == "isnull" {
		e.NotNull = true
	}
	if fixedDecimalFuncs[f.Name] {
		e.FixedDecimals = true
	}
	if n, ok := intFuncLength[f.Name]; ok && e.Type.IsInteger() {
		// MariaDB's Item_long_func: INT whatever the length, but for
		// the few that may pass it.
		e.Type = types.ColType{Base: types.TInt, Length: n, Unsigned: e.Type.Unsigned}
		if longlongFuncs[f.Name] {
			e.Type.Base = types.TBigInt
		}
		return
	}
	if t, ok := numericFuncResult(f, e.Type); ok {
		e.Type = t
		return
	}
	if e.Type.Base != types.TVarchar {
		return
	}
	if n, ok := stringFuncLength(f); ok {
		e.Type.Length = n
		if n >= 65535 {
			e.Type = types.ColType{Base: types.TText, Length: 65535} // MariaDB: a BLOB type
		}
	}
}

// numericFuncResult is the type of ROUND, TRUNCATE, FLOOR, CEIL and ABS
// over exact numbers, as MariaDB sizes it.
func numericFuncResult(f *Call, t types.ColType) (types.ColType, bool) {
	if len(f.Args) == 0 {
		return t, false
	}
	a := f.Args[0]
	at := a.Type
	places, placesKnown := 0, len(f.Args) == 1
	if len(f.Args) == 2 {
		if v, ok := constValue(f.Args[1]); ok && v.K == types.KindInt {
			places, placesKnown = int(max(min(v.I, 38), -38)), true
		}
	}
	intPart := precision(a) - scaleOf(at)
	switch f.Name {
	case "floor", "ceil", "ceiling":
		if isApprox(at) && isApprox(t) {
			return types.ColType{Base: types.TDouble, Length: 17}, true // no decimals
		}
		if at.Base == types.TDecimal && t.IsInteger() {
			// A carry and a sign; INT while the digits fit in 9.
			t := types.ColType{Base: types.TBigInt, Length: intPart + 2}
			if intPart+1 <= 9 {
				t.Base = types.TInt
			}
			return t, true
		}
	case "round", "truncate":
		switch {
		case !placesKnown:
		case at.Base == types.TDecimal && t.Base == types.TDecimal:
			scale := max(min(places, at.Scale), 0)
			t.Scale = scale
			t.Length = max(intPart+boolInt(f.Name == "round")+scale, 1)
			return t, true
		case isApprox(at) && isApprox(t) && places >= 0:
			return types.ColType{Base: types.TDouble, Length: 17 + min(places, 30), Scale: min(places, 30)}, true
		case at.IsInteger() && t.IsInteger() && places < 0:
			return intOfLength(intLength(at)+1, at.Unsigned), true
		}
	case "abs":
		if at.IsInteger() && t.IsInteger() {
			return types.ColType{Base: types.TBigInt, Length: intLength(at), Unsigned: at.Unsigned}, true
		}
	}
	return t, false
}

// fixedDecimalFuncs are the string functions MariaDB describes with
// decimals 0.
var fixedDecimalFuncs = set("hex", "unhex", "dayname", "monthname", "date_format", "from_unixtime", "convert", "binary")

// longlongFuncs are the fixed-width integer functions that are BIGINT.
var longlongFuncs = set("bit_length", "timestampdiff", "unix_timestamp", "time_to_sec")

// keepsNotNull are the functions MariaDB describes NOT NULL when their
// arguments are (the control functions decide it themselves).
var keepsNotNull = set("length", "char_length", "character_length", "octet_length", "locate", "position",
	"instr", "field", "ord", "ascii", "find_in_set", "abs", "sign", "round", "truncate", "floor", "ceil",
	"ceiling", "pi", "rand", "degrees", "radians", "least", "greatest", "now", "current_timestamp",
	"localtime", "localtimestamp", "sysdate", "curdate", "current_date", "curtime", "current_time",
	"utc_timestamp", "utc_date", "utc_time", "period_add", "period_diff", "user", "current_user",
	"session_user", "system_user", "version", "connection_id", "isnull",
	"'tidb`.(dateliteral", "'tidb`.(timestampliteral", "'tidb`.(timeliteral",
	"ifnull", "nvl", "coalesce", "if", "nullif")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// intFuncLength is the length of integer functions whose result has a
// fixed width in MariaDB.
var intFuncLength = map[string]int{
	"length": 10, "char_length": 10, "character_length": 10, "octet_length": 10, "bit_length": 11,
	"year": 4, "month": 2, "day": 2, "dayofmonth": 2, "hour": 2, "minute": 2, "second": 2, "week": 2,
	"dayofweek": 1, "weekday": 1, "quarter": 1, "dayofyear": 3, "microsecond": 6, "datediff": 8,
	"to_days": 6, "period_add": 6, "period_diff": 6, "timestampdiff": 21, "isnull": 1, "sign": 2,
	"bit_count": 2, "locate": 11, "instr": 11, "position": 11, "regexp_instr": 11, "field": 3,
	"ascii": 3, "ord": 7, "strcmp": 2, "find_in_set": 3, "unix_timestamp": 17, "time_to_sec": 17,
}

// stringFuncLength is the character length MariaDB gives a string
// function's result, where it follows from the arguments.
func stringFuncLength(f *Call) (int, bool) {
	args := f.Args
	lit := func(i int) (int, bool) {
		if i >= len(args) {
			return 0, false
		}
		v, ok := args[i].Literal()
		if !ok || !(v.K == types.KindInt || v.K == types.KindUint) || v.I < 0 {
			return 0, false
		}
		return int(min(v.I, 1<<24)), true
	}
	arg := func(i int) int {
		if i >= len(args) {
			return 0 // the family refused a wrong count already; never index past
		}
		return exprChars(args[i])
	}
	switch f.Name {
	case "concat":
		n := 0
		for i := range args {
			n += arg(i)
		}
		return n, true
	case "concat_ws":
		if len(args) < 2 {
			return 0, false
		}
		n := arg(0) * (len(args) - 2)
		for i := 1; i < len(args); i++ {
			n += arg(i)
		}
		return n, true
	case "upper", "lower", "ucase", "lcase", "trim", "ltrim", "rtrim", "reverse", "substring_index",
		"regexp_substr":
		return arg(0), len(args) > 0
	case "replace":
		if len(args) != 3 {
			return 0, false
		}
		n, from, to := arg(0), arg(1), arg(2)
		if to > from && from > 0 {
			n = n / from * to
		}
		return n, true
	case "insert", "insert_func":
		if len(args) != 4 {
			return 0, false
		}
		return arg(0) + arg(3), true
	case "elt":
		n := 0
		for i := 1; i < len(args); i++ {
			n = max(n, arg(i))
		}
		return n, true
	case "quote":
		return 2*arg(0) + 2, len(args) == 1
	case "sha2":
		if n, ok := lit(1); ok && (n == 224 || n == 256 || n == 384 || n == 512) {
			return n / 4, true
		}
		return 128, true
	case "database", "schema":
		return 64, true
	case "left", "right":
		if n, ok := lit(1); ok {
			return min(n, arg(0)), true
		}
	case "substring", "substr", "mid":
		if n, ok := lit(2); ok {
			return min(n, arg(0)), true
		}
		if pos, ok := lit(1); ok && pos >= 1 && len(args) == 2 {
			// MariaDB takes the position off the length in bytes, and
			// counts those as characters: SUBSTRING(VARCHAR(20), 2) is 79.
			return max(4*arg(0)-(pos-1), 0), true
		}
	case "hex":
		if len(args) == 1 && args[0].Type.IsString() {
			return 8 * arg(0), true // two digits a byte, four bytes a character
		}
		if len(args) == 1 && isNumber(args[0].Type) {
			return 16, true
		}
	case "lpad", "rpad":
		return lit(1)
	case "repeat":
		if n, ok := lit(1); ok {
			return arg(0) * n, true
		}
	case "space":
		return lit(0)
	case "dayname", "monthname":
		return 9, true
	case "conv", "bin", "oct":
		return 65, true
	case "md5":
		return 32, true
	case "sha1", "sha":
		return 40, true
	case "password":
		return 41, true
	}
	return 0, false
}
