package lua

import (
	"context"
	"strconv"
	"strings"

	glua "github.com/yuin/gopher-lua"

	"github.com/plrun/plrun/membudget"
	"github.com/plrun/plrun/runtime/lua/pattern"
)

// The string functions that can build a large string or run long in Go
// are replaced by versions that check the call's memory budget before
// they allocate (string.rep('x', 2^40) used to ask for a terabyte and end
// the process) and the call's context while they match (gopher-lua's
// pattern matcher runs in Go, where the VM's per-instruction context
// check never reaches): find, match, gmatch and gsub use
// runtime/lua/pattern, rep, format and table.concat check their result's
// size first, and `..` goes through concatGlobal (concat.go).

// matchBytes is what one pattern match holds while a gsub or gmatch
// collects them.
const matchBytes = 64

// installBudgetedStrings replaces the functions in the real string and
// table libraries; it runs before protectLibraries wraps them.
func (v *vm) installBudgetedStrings() {
	L := v.L
	str := L.G.Global.RawGetString(glua.StringLibName).(*glua.LTable)
	format := str.RawGetString("format").(*glua.LFunction).GFunction
	for name, fn := range map[string]glua.LGFunction{
		"find":   v.strFind,
		"match":  v.strMatch,
		"gmatch": v.strGmatch,
		"gsub":   v.strGsub,
		"rep":    v.strRep,
		"format": v.strFormat(format),
	} {
		str.RawSetString(name, L.NewFunction(fn))
	}
	tab := L.G.Global.RawGetString(glua.TabLibName).(*glua.LTable)
	concat := tab.RawGetString("concat").(*glua.LFunction).GFunction
	tab.RawSetString("concat", L.NewFunction(v.tableConcat(concat)))
	L.G.Global.RawSetString(concatGlobal, L.NewFunction(v.concat))
}

// budget is the running call's memory budget (nil: none).
func (v *vm) budget() *membudget.Budget {
	if v.ctx == nil {
		return nil
	}
	return membudget.From(v.ctx)
}

// fits raises the budget's error (3170) in the script unless a string of
// n bytes fits.
func (v *vm) fits(L *glua.LState, n int64) {
	if err := v.budget().Fits(n); err != nil {
		v.raise(L, err)
	}
}

// matchCheck is what the pattern matcher calls as it goes: the call's
// cancellation, and the budget for the matches collected.
func (v *vm) matchCheck(matches int) error {
	ctx := v.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return v.budget().Fits(int64(matches) * matchBytes)
}

// find runs the pattern matcher; a cancellation or a budget error is
// raised in the script (mapError turns the first into 1317/3024).
func (v *vm) find(L *glua.LState, pat, s string, offset, limit int) []*pattern.MatchData {
	mds, err := pattern.Find(pat, []byte(s), offset, limit, v.matchCheck)
	if err != nil {
		if _, ok := err.(*pattern.Error); ok {
			L.RaiseError("%s", err.Error())
		}
		v.raise(L, err)
	}
	return mds
}

// stringIndex turns a Lua string position (1-based, negative from the
// end) into a Go offset, as gopher-lua's string library does.
func stringIndex(s string, i int, start bool) int {
	if start && i != 0 {
		i--
	}
	l := len(s)
	if i < 0 {
		i = l + i + 1
	}
	i = max(0, i)
	if !start && i > l {
		i = l
	}
	return i
}

// pushCaptures pushes a match's captures (or the whole match when it has
// none and whole is set) and returns how many.
func pushCaptures(L *glua.LState, s string, md *pattern.MatchData, whole bool) int {
	if md.CaptureLength() == 2 {
		if !whole {
			return 0
		}
		L.Push(glua.LString(s[md.Capture(0):md.Capture(1)]))
		return 1
	}
	n := 0
	for i := 2; i < md.CaptureLength(); i += 2 {
		if md.IsPosCapture(i) {
			L.Push(glua.LNumber(md.Capture(i)))
		} else {
			L.Push(glua.LString(s[md.Capture(i):md.Capture(i+1)]))
		}
		n++
	}
	return n
}

func (v *vm) strFind(L *glua.LState) int {
	s := L.CheckString(1)
	pat := L.CheckString(2)
	if len(pat) == 0 {
		L.Push(glua.LNumber(1))
		L.Push(glua.LNumber(0))
		return 2
	}
	init := stringIndex(s, L.OptInt(3, 1), true)
	if init > len(s) {
		L.Push(glua.LNil)
		return 1
	}
	if L.GetTop() == 4 && glua.LVAsBool(L.Get(4)) {
		pos := strings.Index(s[init:], pat)
		if pos < 0 {
			L.Push(glua.LNil)
			return 1
		}
		L.Push(glua.LNumber(init + pos + 1))
		L.Push(glua.LNumber(init + pos + len(pat)))
		return 2
	}
	mds := v.find(L, pat, s, init, 1)
	if len(mds) == 0 {
		L.Push(glua.LNil)
		return 1
	}
	md := mds[0]
	L.Push(glua.LNumber(md.Capture(0) + 1))
	L.Push(glua.LNumber(md.Capture(1)))
	return 2 + pushCaptures(L, s, md, false)
}

func (v *vm) strMatch(L *glua.LState) int {
	s := L.CheckString(1)
	pat := L.CheckString(2)
	offset := L.OptInt(3, 1)
	if offset < 0 {
		offset = len(s) + offset + 1
	}
	offset = max(offset-1, 0)
	if offset > len(s) {
		L.Push(glua.LNil)
		return 1
	}
	mds := v.find(L, pat, s, offset, 1)
	if len(mds) == 0 {
		L.Push(glua.LNil)
		return 1
	}
	return pushCaptures(L, s, mds[0], true)
}

func (v *vm) strGmatch(L *glua.LState) int {
	s := L.CheckString(1)
	pat := L.CheckString(2)
	mds := v.find(L, pat, s, 0, -1)
	next := 0
	L.Push(L.NewFunction(func(L *glua.LState) int {
		if next >= len(mds) {
			return 0
		}
		md := mds[next]
		next++
		return pushCaptures(L, s, md, true)
	}))
	return 1
}

// capture is the text of capture n (0: the whole match) of md, for gsub.
func capture(L *glua.LState, s string, md *pattern.MatchData, n int) string {
	idx := 2 * n
	if n == 0 || (n == 1 && md.CaptureLength() == 2) {
		idx = 0
	} else if idx >= md.CaptureLength() {
		L.RaiseError("invalid capture index")
	}
	if md.IsPosCapture(idx) {
		return strconv.Itoa(md.Capture(idx))
	}
	return s[md.Capture(idx):md.Capture(idx+1)]
}

// strGsub builds its result once, checking the budget as it grows (the
// upstream version also re-copied the whole string per match).
func (v *vm) strGsub(L *glua.LState) int {
	s := L.CheckString(1)
	pat := L.CheckString(2)
	L.CheckTypes(3, glua.LTString, glua.LTNumber, glua.LTTable, glua.LTFunction)
	repl := L.CheckAny(3)
	limit := L.OptInt(4, -1)
	mds := v.find(L, pat, s, 0, limit)
	var out strings.Builder
	last := 0
	for _, md := range mds {
		start, end := md.Capture(0), md.Capture(1)
		piece := s[start:end] // no replacement value: the match stays
		switch r := repl.(type) {
		case glua.LString, glua.LNumber:
			piece = expandReplacement(L, s, md, glua.LVAsString(r))
		case *glua.LTable, *glua.LFunction:
			var val glua.LValue
			key := glua.LValue(glua.LString(capture(L, s, md, 1)))
			if md.CaptureLength() > 2 && md.IsPosCapture(2) {
				key = glua.LNumber(md.Capture(2))
			}
			if t, ok := r.(*glua.LTable); ok {
				val = L.GetTable(t, key)
			} else {
				L.Push(r)
				n := pushCaptures(L, s, md, true)
				L.Call(n, 1)
				val = L.Get(-1)
				L.Pop(1)
			}
			if glua.LVAsBool(val) {
				piece = glua.LVAsString(val)
			}
		}
		v.fits(L, int64(out.Len())+int64(start-last)+int64(len(piece)))
		out.WriteString(s[last:start])
		out.WriteString(piece)
		last = end
	}
	v.fits(L, int64(out.Len())+int64(len(s)-last))
	out.WriteString(s[last:])
	L.Push(glua.LString(out.String()))
	L.Push(glua.LNumber(len(mds)))
	return 2
}

// expandReplacement applies a gsub replacement string: %0-%9 are
// captures, %x is x.
func expandReplacement(L *glua.LState, s string, md *pattern.MatchData, repl string) string {
	if !strings.Contains(repl, "%") {
		return repl
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '%' || i+1 == len(repl) {
			b.WriteByte(c)
			continue
		}
		i++
		if d := repl[i]; d >= '0' && d <= '9' {
			b.WriteString(capture(L, s, md, int(d-'0')))
		} else {
			b.WriteByte(d)
		}
	}
	return b.String()
}

func (v *vm) strRep(L *glua.LState) int {
	s := L.CheckString(1)
	n := L.CheckNumber(2)
	if !(n >= 1) || len(s) == 0 { // NaN too
		L.Push(glua.LString(""))
		return 1
	}
	if float64(n)*float64(len(s)) > float64(1<<62) {
		v.fits(L, 1<<62)
	}
	v.fits(L, int64(n)*int64(len(s)))
	L.Push(glua.LString(strings.Repeat(s, int(n))))
	return 1
}

// strFormat checks a bound on string.format's result (the format, every
// argument as text, and every conversion's width and precision, which
// gopher-lua hands to Go's fmt: up to a million bytes each) before the
// library formats it.
func (v *vm) strFormat(format glua.LGFunction) glua.LGFunction {
	return func(L *glua.LState) int {
		f := L.CheckString(1)
		n := int64(len(f)) + formatPadding(f)
		for i := 2; i <= L.GetTop(); i++ {
			n += 32
			if s, ok := L.Get(i).(glua.LString); ok {
				n += 2 * int64(len(s)) // %q may escape every byte
			}
		}
		v.fits(L, n)
		return format(L)
	}
}

// formatPadding is the most bytes the widths and precisions of format's
// conversions may add (Go's fmt refuses either past 1e6).
func formatPadding(format string) int64 {
	var n int64
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
			i++
		}
		for part := 0; part < 2; part++ { // width, then .precision
			num := int64(0)
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				num = min(num*10+int64(format[i]-'0'), 1_000_001)
				i++
			}
			if num <= 1_000_000 {
				n += num
			}
			if part == 0 && i < len(format) && format[i] == '.' {
				i++
				continue
			}
			break
		}
	}
	return n
}

// tableConcat checks the joined length before table.concat builds it.
func (v *vm) tableConcat(concat glua.LGFunction) glua.LGFunction {
	return func(L *glua.LState) int {
		t := L.CheckTable(1)
		sep := int64(len(L.OptString(2, "")))
		i := L.OptInt(3, 1)
		j := L.OptInt(4, t.Len())
		var n int64
		for k := i; k <= j; k++ {
			if s, ok := t.RawGetInt(k).(glua.LString); ok {
				n += int64(len(s))
			} else {
				n += 32 // a number's text
			}
			if k > i {
				n += sep
			}
			if k&1023 == 0 {
				v.fits(L, n)
			}
		}
		v.fits(L, n)
		return concat(L)
	}
}

// concat is `a .. b .. c`: the joined length is checked first; operands
// that are not strings or numbers go through their __concat metamethods
// as OP_CONCAT would (whatever those return was built under the budget).
func (v *vm) concat(L *glua.LState) int {
	top := L.GetTop()
	var n int64
	plain := true
	for i := 1; i <= top; i++ {
		switch x := L.Get(i).(type) {
		case glua.LString:
			n += int64(len(x))
		case glua.LNumber:
			n += 24
		default:
			plain = false
		}
	}
	v.fits(L, n)
	vals := make([]glua.LValue, top)
	for i := range vals {
		vals[i] = L.Get(i + 1)
	}
	if !plain {
		L.Push(glua.LString(L.Concat(vals...)))
		return 1
	}
	var b strings.Builder
	b.Grow(int(n))
	for _, x := range vals {
		b.WriteString(glua.LVAsString(x))
	}
	L.Push(glua.LString(b.String()))
	return 1
}
