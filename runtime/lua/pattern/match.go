package pattern

import "fmt"

// Error is a malformed pattern (or one too complex to match), raised to
// the script as a Lua error.
type Error struct {
	Pos     int // byte offset in the pattern, or -1
	Message string
}

func (e *Error) Error() string {
	if e.Pos < 0 {
		return e.Message
	}
	return fmt.Sprintf("%s at %d", e.Message, e.Pos)
}

// MatchData is one match: the whole match and its captures.
//
// Layout (the contract runtime/lua's string library reads): entries 0 and
// 1 are the whole match's start and end; each capture i adds entries 2+2i
// (start) and 3+2i (end). A position capture () stores its 1-based
// position in both, flagged (IsPosCapture). Positions are byte offsets
// into the subject.
type MatchData struct {
	captures []int
	pos      []bool
}

// CaptureLength is the number of entries: 2 + 2 per capture.
func (md *MatchData) CaptureLength() int { return len(md.captures) }

// IsPosCapture reports whether entry idx belongs to a position capture.
func (md *MatchData) IsPosCapture(idx int) bool { return md.pos[idx] }

// Capture is entry idx.
func (md *MatchData) Capture(idx int) int { return md.captures[idx] }

const (
	maxCaptures   = 32    // Lua's LUA_MAXCAPTURES
	maxDepth      = 20000 // recursion bound: "pattern too complex"
	capUnfinished = -1
	capPosition   = -2
	// stepsPerCheck is how many matcher steps run between two calls of
	// the check function: a few microseconds of work.
	stepsPerCheck = 4096
)

// stopped carries the check function's error out of the recursion.
type stopped struct{ err error }

// matcher is one match attempt's state, as Lua 5.1's MatchState.
type matcher struct {
	src   []byte
	pat   string
	level int
	caps  [maxCaptures]struct{ init, len int }
	depth int

	steps   int
	matches int
	check   func(matches int) error
}

func (m *matcher) fail(pos int, format string, args ...any) {
	panic(&Error{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// step counts work and, every stepsPerCheck steps, asks check whether to
// go on: that is what makes a backtracking pattern cancellable.
func (m *matcher) step() {
	m.steps++
	if m.steps%stepsPerCheck == 0 && m.check != nil {
		if err := m.check(m.matches); err != nil {
			panic(stopped{err})
		}
	}
}

// at is the subject byte at s, 0 past the end (Lua reads the C string's
// terminating NUL there, which %f relies on).
func (m *matcher) at(s int) byte {
	if s < len(m.src) {
		return m.src[s]
	}
	return 0
}

// patAt is the pattern byte at p, 0 past the end.
func (m *matcher) patAt(p int) byte {
	if p < len(m.pat) {
		return m.pat[p]
	}
	return 0
}

// Find returns up to limit matches (-1: all) of pattern p in src from
// offset, as gopher-lua's matcher does for string.find/match/gmatch/gsub:
// a pattern starting with '^' is tried at offset only; otherwise every
// start from offset on is tried, and after a match the next try starts
// where it ended (one byte later for an empty match). check (nil for none)
// is called every few thousand steps and every 1024 matches with the
// number of matches so far; the error it returns ends the search and is
// Find's error.
func Find(p string, src []byte, offset, limit int, check func(matches int) error) (matches []*MatchData, err error) {
	defer func() {
		if v := recover(); v != nil {
			switch e := v.(type) {
			case *Error:
				matches, err = nil, e
			case stopped:
				matches, err = nil, e.err
			default:
				panic(v)
			}
		}
	}()
	m := &matcher{src: src, pat: p, check: check}
	start, anchored := 0, len(p) > 0 && p[0] == '^'
	if anchored {
		start = 1
	}
	matches = []*MatchData{}
	for sp := offset; sp <= len(src); {
		m.level, m.depth = 0, 0
		end := m.match(sp, start)
		next := sp + 1
		if end >= 0 {
			matches = append(matches, m.matchData(sp, end))
			next = max(next, end)
			if m.matches = len(matches); m.matches%1024 == 0 && check != nil {
				if err := check(m.matches); err != nil {
					return nil, err
				}
			}
		}
		if len(matches) == limit || anchored {
			break
		}
		sp = next
	}
	return matches, nil
}

func (m *matcher) matchData(start, end int) *MatchData {
	md := &MatchData{captures: []int{start, end}, pos: []bool{false, false}}
	for i := 0; i < m.level; i++ {
		c := m.caps[i]
		if c.len == capUnfinished {
			m.fail(-1, "unfinished capture")
		}
		if c.len == capPosition {
			md.captures = append(md.captures, c.init+1, c.init+1)
			md.pos = append(md.pos, true, true)
			continue
		}
		md.captures = append(md.captures, c.init, c.init+c.len)
		md.pos = append(md.pos, false, false)
	}
	return md
}

// match matches the pattern from p against the subject from s and returns
// where the match ends, or -1.
func (m *matcher) match(s, p int) int {
	if m.depth++; m.depth > maxDepth {
		m.fail(-1, "pattern too complex")
	}
	end := m.doMatch(s, p)
	m.depth--
	return end
}

// doMatch is match's body; it follows Lua 5.1's lstrlib.c match().
func (m *matcher) doMatch(s, p int) int {
	for {
		m.step()
		if p >= len(m.pat) {
			return s
		}
		switch m.pat[p] {
		case '(':
			if m.patAt(p+1) == ')' {
				return m.startCapture(s, p+2, capPosition)
			}
			return m.startCapture(s, p+1, capUnfinished)
		case ')':
			return m.endCapture(s, p+1)
		case '%':
			switch m.patAt(p + 1) {
			case 'b':
				if s = m.matchBalance(s, p+2); s < 0 {
					return -1
				}
				p += 4
				continue
			case 'f':
				p += 2
				if m.patAt(p) != '[' {
					m.fail(p, "missing '[' after '%%f' in pattern")
				}
				ep := m.classEnd(p)
				var prev byte
				if s > 0 {
					prev = m.src[s-1]
				}
				if m.matchBracketClass(prev, p, ep-1) || !m.matchBracketClass(m.at(s), p, ep-1) {
					return -1
				}
				p = ep
				continue
			default:
				if c := m.patAt(p + 1); c >= '0' && c <= '9' {
					if s = m.matchCapture(s, int(c)); s < 0 {
						return -1
					}
					p += 2
					continue
				}
			}
		case '$':
			if p+1 == len(m.pat) {
				if s == len(m.src) {
					return s
				}
				return -1
			}
		}
		ep := m.classEnd(p)
		ok := s < len(m.src) && m.singleMatch(m.src[s], p, ep)
		switch m.patAt(ep) {
		case '?':
			if ok {
				if res := m.match(s+1, ep+1); res >= 0 {
					return res
				}
			}
			p = ep + 1
			continue
		case '*':
			return m.maxExpand(s, p, ep)
		case '+':
			if !ok {
				return -1
			}
			return m.maxExpand(s+1, p, ep)
		case '-':
			return m.minExpand(s, p, ep)
		}
		if !ok {
			return -1
		}
		s, p = s+1, ep
	}
}

// maxExpand matches as many repetitions of the single class at p as it
// can, then backs off one at a time until the rest of the pattern matches.
func (m *matcher) maxExpand(s, p, ep int) int {
	i := 0
	for s+i < len(m.src) && m.singleMatch(m.src[s+i], p, ep) {
		m.step()
		i++
	}
	for ; i >= 0; i-- {
		if res := m.match(s+i, ep+1); res >= 0 {
			return res
		}
	}
	return -1
}

// minExpand matches as few repetitions as it can ('-').
func (m *matcher) minExpand(s, p, ep int) int {
	for {
		if res := m.match(s, ep+1); res >= 0 {
			return res
		}
		if s < len(m.src) && m.singleMatch(m.src[s], p, ep) {
			s++
			continue
		}
		return -1
	}
}

func (m *matcher) startCapture(s, p, what int) int {
	if m.level >= maxCaptures {
		m.fail(p, "too many captures")
	}
	m.caps[m.level].init, m.caps[m.level].len = s, what
	m.level++
	res := m.match(s, p)
	if res < 0 {
		m.level--
	}
	return res
}

func (m *matcher) endCapture(s, p int) int {
	l := -1
	for i := m.level - 1; i >= 0; i-- {
		if m.caps[i].len == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		m.fail(p-1, "invalid pattern capture")
	}
	m.caps[l].len = s - m.caps[l].init
	res := m.match(s, p)
	if res < 0 {
		m.caps[l].len = capUnfinished
	}
	return res
}

// matchBalance is %bxy: a run from x to its matching y.
func (m *matcher) matchBalance(s, p int) int {
	if p+1 >= len(m.pat) {
		m.fail(p, "unbalanced pattern") // Lua 5.1's words for %b without its two bytes
	}
	if s >= len(m.src) || m.src[s] != m.pat[p] {
		return -1
	}
	b, e, cont := m.pat[p], m.pat[p+1], 1
	for s++; s < len(m.src); s++ {
		m.step()
		switch m.src[s] {
		case e:
			if cont--; cont == 0 {
				return s + 1
			}
		case b:
			cont++
		}
	}
	return -1
}

// matchCapture is a back-reference %1 .. %9.
func (m *matcher) matchCapture(s, digit int) int {
	l := digit - '1'
	if l < 0 || l >= m.level || m.caps[l].len == capUnfinished {
		m.fail(-1, "invalid capture index %%%d", l+1)
	}
	c := m.caps[l]
	if c.len == capPosition {
		return -1 // as Lua 5.1: a position has no text to repeat
	}
	n := c.len
	if len(m.src)-s >= n && string(m.src[c.init:c.init+n]) == string(m.src[s:s+n]) {
		return s + n
	}
	return -1
}

// classEnd returns the index just past the single class at p: a byte, an
// escape %x, or a set [...].
func (m *matcher) classEnd(p int) int {
	c := m.pat[p]
	p++
	switch c {
	case '%':
		if p >= len(m.pat) {
			m.fail(p, "malformed pattern (ends with '%%')")
		}
		return p + 1
	case '[':
		if m.patAt(p) == '^' {
			p++
		}
		for { // the first byte is in the set even if it is ']'
			if p >= len(m.pat) {
				m.fail(p, "malformed pattern (missing ']')")
			}
			c := m.pat[p]
			p++
			if c == '%' && p < len(m.pat) {
				p++
			}
			if m.patAt(p) == ']' {
				return p + 1
			}
		}
	}
	return p
}

// singleMatch matches one subject byte against the class at p..ep.
func (m *matcher) singleMatch(c byte, p, ep int) bool {
	switch m.pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, m.pat[p+1])
	case '[':
		return m.matchBracketClass(c, p, ep-1)
	}
	return m.pat[p] == c
}

// matchBracketClass matches c against the set from p ('[') to ec (']').
func (m *matcher) matchBracketClass(c byte, p, ec int) bool {
	sig := true
	if m.patAt(p+1) == '^' {
		sig = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case m.pat[p] == '%':
			p++
			if matchClass(c, m.pat[p]) {
				return sig
			}
		case m.patAt(p+1) == '-' && p+2 < ec:
			if m.pat[p] <= c && c <= m.pat[p+2] {
				return sig
			}
			p += 2
		case m.pat[p] == c:
			return sig
		}
	}
	return !sig
}

// matchClass is %a, %d, ... (upper case: the complement) in the C
// locale, as Lua's isalpha etc.; any other byte matches itself.
func matchClass(c, class byte) bool {
	var res bool
	switch class | 0x20 {
	case 'a':
		res = isAlpha(c)
	case 'c':
		res = c < 0x20 || c == 0x7f
	case 'd':
		res = '0' <= c && c <= '9'
	case 'l':
		res = 'a' <= c && c <= 'z'
	case 'p':
		res = isPunct(c)
	case 's':
		res = c == ' ' || '\t' <= c && c <= '\r'
	case 'u':
		res = 'A' <= c && c <= 'Z'
	case 'w':
		res = isAlpha(c) || '0' <= c && c <= '9'
	case 'x':
		res = '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
	case 'z':
		res = c == 0
	default:
		return class == c
	}
	if 'A' <= class && class <= 'Z' {
		return !res
	}
	return res
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}
