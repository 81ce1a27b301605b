package expr

import (
	"github.com/plrun/plrun/sql/sysvar"
	"github.com/plrun/plrun/sqlerr"
)

// divisionByZero is what x/0, x DIV 0 and x % 0 give besides their NULL,
// as in MariaDB: nothing without ERROR_FOR_DIVISION_BY_ZERO; with it,
// error 1365 in an INSERT or UPDATE under strict mode, else warning 1365.
func (c *Ctx) divisionByZero() error {
	if c.Env == nil || c.Env.SQLMode()&sysvar.ModeErrorDivByZero == 0 {
		return nil
	}
	if c.Strict {
		return sqlerr.New(sqlerr.ErDivisionByZero, "Division by 0")
	}
	c.Env.Warn(sqlerr.ErDivisionByZero, "Division by 0")
	return nil
}
