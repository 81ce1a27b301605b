package funcs

import "github.com/plrun/plrun/types"

// A byte string's unit is the byte: CHAR_LENGTH, SUBSTRING, LEFT, RIGHT
// and REVERSE count and cut bytes of one (and give one back), as MySQL
// does, where a character string's unit is the character. Going through
// []rune would also replace each invalid UTF-8 byte with U+FFFD.

// unitsOf is v's units as runes: its characters, or for a byte string
// one rune per byte.
func unitsOf(v types.Value) (units []rune, binary bool) {
	s := v.String()
	if !v.IsBinary() {
		return []rune(s), false
	}
	units = make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		units[i] = rune(s[i])
	}
	return units, true
}

// fromUnits is the string of units unitsOf gave.
func fromUnits(units []rune, binary bool) types.Value {
	if !binary {
		return types.StringValue(string(units))
	}
	b := make([]byte, len(units))
	for i, u := range units {
		b[i] = byte(u)
	}
	return types.BytesValue(string(b))
}
