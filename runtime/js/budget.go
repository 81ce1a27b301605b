package js

import (
	"math"

	"github.com/dop251/goja"

	"github.com/plrun/plrun/membudget"
)

// The builtins that build one large string in a single Go call are
// wrapped so the size is checked against the CALL's memory budget before
// goja allocates it: 'x'.repeat(2 ** 40) asked for a terabyte in one
// strings.Builder.Grow and ended the process. What a script grows step by
// step (s += s, arrays) is watched by membudget.Watch during the call.

// budget is the running call's memory budget (nil: none).
func (v *vm) budget() *membudget.Budget {
	if v.ctx == nil {
		return nil
	}
	return membudget.From(v.ctx)
}

// fits throws the budget's error (3170) in the script unless n bytes fit.
func (v *vm) fits(n float64) {
	if !(n > 0) { // NaN: a length that is not a number builds nothing
		return
	}
	if n > math.MaxInt64/2 {
		n = math.MaxInt64 / 2
	}
	if err := v.budget().Fits(int64(n)); err != nil {
		v.throw(err)
	}
}

// wrapBuiltins replaces String.prototype.repeat, concat, padStart, padEnd,
// Array.prototype.join and fill, and Array.from with versions that check
// their result's size first; it runs before the globals are frozen.
func (v *vm) wrapBuiltins() {
	r := v.r
	strProto := r.Get("String").ToObject(r).Get("prototype").ToObject(r)
	arrProto := r.Get("Array").ToObject(r).Get("prototype").ToObject(r)
	wrap := func(proto *goja.Object, name string, size func(call goja.FunctionCall) float64) {
		orig, ok := goja.AssertFunction(proto.Get(name))
		if !ok {
			panic("builtin " + name + " is not a function")
		}
		must(proto.Set(name, func(call goja.FunctionCall) goja.Value {
			v.fits(size(call))
			res, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return res
		}))
	}
	strLen := func(val goja.Value) float64 {
		if goja.IsUndefined(val) || goja.IsNull(val) {
			return 0
		}
		return float64(len(val.String()))
	}
	// A JavaScript string is UTF-16: count two bytes a unit.
	wrap(strProto, "repeat", func(call goja.FunctionCall) float64 {
		n := call.Argument(0).ToFloat()
		if !(n > 0) || math.IsInf(n, 1) {
			return 0 // the builtin throws its RangeError or returns ''
		}
		return 2 * strLen(call.This) * math.Trunc(n)
	})
	pad := func(call goja.FunctionCall) float64 {
		n := call.Argument(0).ToFloat()
		if !(n > 0) {
			return 0
		}
		return 2 * n
	}
	wrap(strProto, "concat", func(call goja.FunctionCall) float64 {
		n := strLen(call.This)
		for _, a := range call.Arguments {
			n += strLen(a)
		}
		return 2 * n
	})
	wrap(strProto, "padStart", pad)
	wrap(strProto, "padEnd", pad)
	// fill and Array.from write every index of a length the script
	// chose (new Array(2 ** 32 - 1).fill(0)) in one Go loop: 16 bytes each.
	wrap(arrProto, "fill", func(call goja.FunctionCall) float64 {
		return 16 * call.This.ToObject(r).Get("length").ToFloat()
	})
	arrayCtor := r.Get("Array").ToObject(r)
	from, ok := goja.AssertFunction(arrayCtor.Get("from"))
	if !ok {
		panic("Array.from is not a function")
	}
	must(arrayCtor.Set("from", func(call goja.FunctionCall) goja.Value {
		if o, ok := call.Argument(0).(*goja.Object); ok {
			if l := o.Get("length"); l != nil {
				v.fits(16 * l.ToFloat())
			}
		}
		res, err := from(call.This, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return res
	}))
	wrap(arrProto, "join", func(call goja.FunctionCall) float64 {
		o := call.This.ToObject(r)
		n := o.Get("length").ToFloat()
		if !(n > 0) {
			return 0
		}
		sep := 1.0
		if s := call.Argument(0); !goja.IsUndefined(s) {
			sep = strLen(s)
		}
		total := 2 * sep * (n - 1)
		v.fits(total)
		// Sum the elements that are there (a sparse array's holes are '').
		for _, k := range o.Keys() {
			if el := o.Get(k); el != nil && el.ExportType() != nil {
				if s, ok := el.Export().(string); ok {
					total += 2 * float64(len(s))
				} else {
					total += 48
				}
			}
		}
		return total
	})
}
