package pattern

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	gpm "github.com/yuin/gopher-lua/pm"
)

// captured is what both matchers' match data answer.
type captured interface {
	CaptureLength() int
	IsPosCapture(int) bool
	Capture(int) int
}

// flatten is a match list as comparable values (a position capture
// negated).
func flatten[M captured](mds []M) [][]int {
	out := [][]int{}
	for _, md := range mds {
		row := []int{}
		for i := 0; i < md.CaptureLength(); i++ {
			v := md.Capture(i)
			if md.IsPosCapture(i) {
				v = -v
			}
			row = append(row, v)
		}
		out = append(out, row)
	}
	return out
}

// compare runs one pattern through both matchers: the same matches and
// captures, or both an error.
func compare(t *testing.T, pat, src string) {
	t.Helper()
	got, err := Find(pat, []byte(src), 0, -1, nil)
	want, werr := func() (m []*gpm.MatchData, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = errors.New("upstream panicked")
			}
		}()
		return gpm.Find(pat, []byte(src), 0, -1)
	}()
	// Where the two differ, this matcher does what Lua 5.1 does:
	// gopher-lua rejects a malformed capture while parsing, Lua only when a
	// match needs it (no match, no error); gopher-lua accepts a pattern
	// ending in '%' or '%b', Lua raises an error; gopher-lua lets a
	// back-reference to a position capture match the empty string, Lua
	// never matches it.
	if strings.Contains(pat, "()") && strings.Contains(pat, "%1") && len(got) == 0 {
		return
	}
	switch {
	case err == nil && werr != nil:
		if len(got) != 0 {
			t.Fatalf("Find(%q, %q) = %v; gopher-lua raised %v", pat, src, flatten(got), werr)
		}
		return
	case err != nil && werr == nil:
		if !strings.HasSuffix(pat, "%") && !strings.HasSuffix(pat, "%b") {
			t.Fatalf("Find(%q, %q): error %v; gopher-lua found %v", pat, src, err, flatten(want))
		}
		return
	}
	if err == nil && !reflect.DeepEqual(flatten(got), flatten(want)) {
		t.Fatalf("Find(%q, %q) = %v, gopher-lua's %v", pat, src, flatten(got), flatten(want))
	}
}

func TestKnownPatterns(t *testing.T) {
	for _, c := range [][2]string{
		{"a", "banana"}, {"an", "banana"}, {"^b", "banana"}, {"^a", "banana"}, {"a$", "banana"},
		{"%a+", "hello world 42"}, {"%d+", "a1b22c333"}, {"%s*", "  x "}, {"[%w_]+", "x_1 y-2"},
		{"[^%s]+", "one two  three"}, {"(%a+)=(%d+)", "a=1, bb=22"}, {"()a()", "banana"},
		{"%bxy", "axbxyyc"}, {"%b()", "f(a(b)c) (d"}, {"(a*(.)%w(%s*))", "aaab  c"},
		{"(h)(e)%2%1", "heeh hehe"}, {"a-b", "aaab"}, {"a-", "aaa"}, {"a?b", "ab b"},
		{".-%.", "x.y.z"}, {"[a-c]+", "xabcd"}, {"[]]", "a]b"}, {"[^]]+", "ab]c"}, {"[%]]", "]"},
		{"%.", "a.b"}, {"%%", "100%"}, {"[a-]", "-a"}, {"%u%l+", "Hello World"}, {"%x+", "ff 0x1A"},
		{"%p+", "a!?b"}, {"%c", "a\tb"}, {"%S+", "a b"}, {"%D", "1a2"}, {"", "abc"}, {".*", "abc"},
		{"(", "x"}, {"%", "x"}, {"[a", "x"}, {"%b", "x"}, {"%1", "x"}, {"(()", "x"}, {")", "x"},
	} {
		compare(t, c[0], c[1])
	}
}

// TestAgainstGopherLua: random patterns from a small alphabet, on random
// subjects, give what gopher-lua's matcher gives.
func TestAgainstGopherLua(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	atoms := []string{"a", "b", ".", "%a", "%d", "%s", "[ab]", "[^a]", "[a-c]", "%%", "(", ")", "()", "%b()", "%1"}
	quants := []string{"", "", "*", "+", "-", "?"}
	subjects := []byte("ab1 ()c")
	n := 20000
	if testing.Short() {
		n = 3000
	}
	for i := 0; i < n; i++ {
		var p strings.Builder
		if rng.IntN(4) == 0 {
			p.WriteByte('^')
		}
		for j := rng.IntN(5); j >= 0; j-- {
			p.WriteString(atoms[rng.IntN(len(atoms))])
			p.WriteString(quants[rng.IntN(len(quants))])
		}
		if rng.IntN(5) == 0 {
			p.WriteByte('$')
		}
		src := make([]byte, rng.IntN(12))
		for k := range src {
			src[k] = subjects[rng.IntN(len(subjects))]
		}
		compare(t, p.String(), string(src))
	}
}

func TestFrontier(t *testing.T) {
	got, err := Find("%f[%a]%a+", []byte("THE (quick) fox"), 0, -1, nil)
	if err != nil || len(got) != 3 || got[1].Capture(0) != 5 || got[1].Capture(1) != 10 {
		t.Fatalf("%%f: %v %v", flatten(got), err)
	}
	if _, err := Find("%f", []byte("x"), 0, -1, nil); err == nil {
		t.Fatalf("%%f without a set is not an error")
	}
}

// TestCheckStopsBacktracking: the check function is called while a
// backtracking match runs, and its error ends the match.
func TestCheckStopsBacktracking(t *testing.T) {
	stop := errors.New("cancelled")
	calls := 0
	_, err := Find(strings.Repeat("a-", 30)+"b", []byte(strings.Repeat("a", 100000)), 0, 1, func(int) error {
		calls++
		if calls == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 10 {
		t.Fatalf("err %v after %d checks", err, calls)
	}
}

// BenchmarkFind compares this matcher with gopher-lua's on a gmatch-style
// scan of a 10 KB text.
func BenchmarkFind(b *testing.B) {
	src := []byte(strings.Repeat("key_12=value 34; other=5 ", 400))
	for _, pat := range []string{"(%w+)=(%w+)", "%d+", "[%a_]+"} {
		b.Run("plrun/"+pat, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Find(pat, src, 0, -1, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("gopher-lua/"+pat, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := gpm.Find(pat, src, 0, -1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
