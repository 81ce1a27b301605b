package psm

import (
	"strings"

	"github.com/plrun/plrun/sqlerr"
	"github.com/plrun/plrun/types"
)

// signalStmt is SIGNAL (or RESIGNAL) [SQLSTATE 'x' | condition]
// [SET MESSAGE_TEXT = v, MYSQL_ERRNO = v].
type signalStmt struct {
	resignal bool
	cond     *condValue // nil: RESIGNAL of the condition being handled
	message  *expression
	errno    *expression
}

func (s *signalStmt) exec(r *runner) error {
	var e sqlerr.Error
	switch {
	case s.resignal && len(r.handling) == 0:
		return newErr(erResignalWithoutHandler, "0K000", "RESIGNAL when handler not active")
	case s.resignal && s.cond == nil:
		e = *r.handling[len(r.handling)-1]
	case s.cond.kind == condErrno:
		// A condition declared for an error number signals that error.
		e = sqlerr.Error{Code: s.cond.errno, State: sqlerr.StateOf(s.cond.errno), Message: "Unhandled user-defined exception condition"}
	default:
		e = sqlerr.Error{State: s.cond.state}
		switch class := s.cond.state[:2]; class {
		case "01":
			e.Code, e.Message = erSignalWarn, "Unhandled user-defined warning condition"
		case "02":
			e.Code, e.Message = erSignalNotFound, "Unhandled user-defined not found condition"
		default:
			e.Code, e.Message = erSignalException, "Unhandled user-defined exception condition"
		}
	}
	if s.message != nil {
		v, err := r.eval(s.message)
		if err != nil {
			return err
		}
		if v.IsNull() {
			return newErr(erWrongValueForVar, "42000", "Variable 'MESSAGE_TEXT' can't be set to the value of 'NULL'")
		}
		e.Message = v.String()
	}
	if s.errno != nil {
		v, err := r.eval(s.errno)
		if err != nil {
			return err
		}
		n, ok := v.ToInt64()
		if v.IsNull() || !ok || n <= 0 || n > 65534 {
			return newErr(erWrongValueForVar, "42000", "Variable 'MYSQL_ERRNO' can't be set to the value of '%s'", valueText(v))
		}
		e.Code = uint16(n)
	}
	if strings.HasPrefix(e.State, "01") {
		if r.env == nil {
			return notSupported("SIGNAL of a warning in this host")
		}
		r.env.Warn(e.Code, "%s", e.Message)
		return nil
	}
	return &e
}

func valueText(v types.Value) string {
	if v.IsNull() {
		return "NULL"
	}
	return v.String()
}

func (c *compiler) compileSignal() (stmt, error) {
	s := &signalStmt{resignal: c.next().is("RESIGNAL")}
	t := c.peek()
	switch {
	case t.is("SQLSTATE"):
		cv, err := c.readCondValue(false)
		if err != nil {
			return nil, err
		}
		s.cond = cv
	case t.is("SET") || t.kind == tokPunct && t.text == ";" || t.kind == tokEOF:
		if !s.resignal {
			return nil, c.syntaxError()
		}
	default:
		name, err := c.ident()
		if err != nil {
			return nil, err
		}
		cv, ok := c.lookupCond(name)
		if !ok {
			return nil, newErr(erSPCondMismatch, "42000", "Undefined CONDITION: %s", name)
		}
		s.cond = cv
	}
	if !c.accept("SET") {
		return s, nil
	}
	for {
		item := c.next()
		if err := c.expectPunct("="); err != nil {
			return nil, err
		}
		from := c.i
		c.scanComma()
		e, err := c.compileExpr(from, c.i)
		if err != nil {
			return nil, err
		}
		switch {
		case item.is("MESSAGE_TEXT") && s.message == nil:
			s.message = e
		case item.is("MYSQL_ERRNO") && s.errno == nil:
			s.errno = e
		case item.is("MESSAGE_TEXT") || item.is("MYSQL_ERRNO"):
			return nil, newErr(1641, "42000", "Duplicate condition information item '%s'", upper(item.text))
		default:
			return nil, notSupported("SIGNAL items other than MESSAGE_TEXT and MYSQL_ERRNO")
		}
		if !c.acceptPunct(",") {
			return s, nil
		}
	}
}
