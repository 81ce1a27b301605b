package psm

import (
	"strconv"
	"strings"

	"github.com/plrun/plrun/sqlerr"
)

// condKind is what a handler's condition value names.
type condKind int

const (
	condErrno     condKind = iota // a MySQL error number
	condState                     // SQLSTATE 'xxxxx'
	condException                 // SQLEXCEPTION: any class but 00, 01, 02
	condWarning                   // SQLWARNING: class 01
	condNotFound                  // NOT FOUND: class 02
)

// condValue is one condition a handler (or DECLARE ... CONDITION) names.
type condValue struct {
	kind  condKind
	errno uint16
	state string
}

// rank orders matches: MySQL prefers an error number over an SQLSTATE
// over the class words.
func (cv *condValue) rank() int {
	switch cv.kind {
	case condErrno:
		return 3
	case condState:
		return 2
	}
	return 1
}

func (cv *condValue) matches(e *sqlerr.Error) bool {
	class := ""
	if len(e.State) >= 2 {
		class = e.State[:2]
	}
	switch cv.kind {
	case condErrno:
		return e.Code == cv.errno
	case condState:
		return strings.EqualFold(e.State, cv.state)
	case condNotFound:
		return class == "02"
	case condWarning:
		return class == "01"
	}
	return class != "00" && class != "01" && class != "02"
}

// handler is DECLARE CONTINUE|EXIT HANDLER FOR conditions body.
type handler struct {
	exit  bool
	conds []*condValue
	body  stmt
}

// handlerFrame is the handlers of one running block.
type handlerFrame struct {
	blockID  int
	handlers []*handler
}

// match is the handler of the frame that takes e, the most specific one.
func (f *handlerFrame) match(e *sqlerr.Error) *handler {
	var best *handler
	bestRank := 0
	for _, h := range f.handlers {
		for _, cv := range h.conds {
			if cv.matches(e) && cv.rank() > bestRank {
				best, bestRank = h, cv.rank()
			}
		}
	}
	return best
}

// readCondValue reads a condition value: an error number, SQLSTATE
// [VALUE] 'xxxxx', or (handlers only, named true) SQLEXCEPTION,
// SQLWARNING, NOT FOUND or a declared condition's name.
func (c *compiler) readCondValue(named bool) (*condValue, error) {
	t := c.peek()
	switch {
	case t.kind == tokNumber:
		c.i++
		n, err := strconv.ParseUint(t.text, 10, 16)
		if err != nil || n == 0 {
			return nil, newErr(1064, "42000", "Incorrect CONDITION value: '%s'", t.text)
		}
		return &condValue{kind: condErrno, errno: uint16(n)}, nil
	case t.is("SQLSTATE"):
		c.i++
		c.accept("VALUE")
		s := c.next()
		if s.kind != tokString {
			return nil, c.syntaxErrorAt(s)
		}
		state := s.unquoted()
		if !validState(state) || strings.HasPrefix(state, "00") {
			return nil, newErr(1407, "42000", "Bad SQLSTATE: '%s'", state)
		}
		return &condValue{kind: condState, state: state}, nil
	case !named:
		return nil, c.syntaxError()
	case t.is("SQLEXCEPTION"):
		c.i++
		return &condValue{kind: condException}, nil
	case t.is("SQLWARNING"):
		c.i++
		return &condValue{kind: condWarning}, nil
	case t.is("NOT"):
		c.i++
		if err := c.expect("FOUND"); err != nil {
			return nil, err
		}
		return &condValue{kind: condNotFound}, nil
	}
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	cv, ok := c.lookupCond(name)
	if !ok {
		return nil, newErr(erSPCondMismatch, "42000", "Undefined CONDITION: %s", name)
	}
	return cv, nil
}

// validState is five characters of [0-9A-Z].
func validState(s string) bool {
	if len(s) != 5 {
		return false
	}
	for i := 0; i < 5; i++ {
		ch := s[i]
		if !(ch >= '0' && ch <= '9' || ch >= 'A' && ch <= 'Z') {
			return false
		}
	}
	return true
}
