package query

import (
	"slices"

	"github.com/plrun/plrun/sql/expr"
)

// SortStable sorts rows by less, keeping equal rows in order, and
// checks the statement's context as it goes: a bottom-up merge sort whose
// every run and every few thousand merged rows is a point where KILL,
// max_execution_time or a gone client stops it (sort.SliceStable cannot
// be interrupted, so ORDER BY over millions of rows ran to the end).
func SortStable[T any](ec *expr.Ctx, rows []T, less func(a, b T) bool) error {
	cmp := func(a, b T) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	}
	const run = 64
	for lo := 0; lo < len(rows); lo += run {
		slices.SortStableFunc(rows[lo:min(lo+run, len(rows))], cmp)
		if err := ec.Poll(); err != nil {
			return err
		}
	}
	if len(rows) <= run {
		return nil
	}
	buf := make([]T, len(rows))
	src, dst := rows, buf
	for width := run; width < len(rows); width *= 2 {
		for lo := 0; lo < len(src); lo += 2 * width {
			mid, hi := min(lo+width, len(src)), min(lo+2*width, len(src))
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if less(src[j], src[i]) {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
				if k&4095 == 0 {
					if err := ec.PollNow(); err != nil {
						return err
					}
				}
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if &src[0] != &rows[0] {
		copy(rows, src)
	}
	return nil
}
