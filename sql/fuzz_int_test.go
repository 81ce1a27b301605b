package sql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plrun/plrun/sqlerr"
)

// extremeInts are the integers where conversions to Go ints go wrong.
var extremeInts = []string{
	"0", "1", "-1", "2", "255", "256", "65535", "2147483647", "-2147483648", "4294967295", "4294967296",
	"9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615",
	"18446744073709551616", "-18446744073709551616", "1e30", "-1e30", "1e308", "-1e308", "0.5", "-0.5",
	"'18446744073709551615'", "'-1'", "'1e400'", "NULL", "99999999999999999999999999999999999999",
}

// intExprTemplates use their arguments where SQL values become Go ints.
var intExprTemplates = []string{
	"SELECT 1 LIMIT %[1]s",
	"SELECT 1 LIMIT %[1]s, %[2]s",
	"SELECT id FROM t ORDER BY id LIMIT %[1]s OFFSET %[2]s",
	"SELECT SUBSTRING('abcdef', %[1]s), SUBSTRING('abcdef', %[1]s, %[2]s), MID('abc', %[2]s, %[3]s)",
	"SELECT REPEAT('ab', %[1]s) IS NULL, LENGTH(REPEAT('x', %[2]s))",
	"SELECT ROUND(%[1]s, %[2]s), TRUNCATE(%[1]s, %[3]s), FLOOR(%[1]s), CEIL(%[2]s)",
	"SELECT %[1]s + %[2]s, %[1]s - %[2]s, %[1]s * %[2]s, %[1]s / %[2]s, %[1]s DIV %[2]s, %[1]s %% %[2]s, MOD(%[1]s, %[3]s)",
	"SELECT -%[1]s, ABS(%[1]s), -(%[2]s), - -%[3]s",
	"SELECT CAST(%[1]s AS SIGNED), CAST(%[2]s AS UNSIGNED), CAST(%[3]s AS DECIMAL(65,30)), CAST(%[1]s AS CHAR(3))",
	"SELECT LAST_INSERT_ID(%[1]s)",
	"SELECT %[1]s BETWEEN %[2]s AND %[3]s, %[1]s NOT BETWEEN %[2]s AND %[3]s, %[1]s IN (%[2]s, %[3]s)",
	"SELECT GREATEST(%[1]s, %[2]s, %[3]s), LEAST(%[1]s, %[2]s), IFNULL(%[1]s, %[2]s), COALESCE(%[3]s, %[1]s)",
	"SELECT SUM(%[1]s), AVG(%[2]s), MAX(%[3]s) FROM t",
	"INSERT INTO t (id, n, u, d) VALUES (%[1]s, %[2]s, %[3]s, %[1]s)",
	"UPDATE t SET n = n + %[1]s, u = %[2]s WHERE id = 1",
	"DELETE FROM t WHERE id = %[1]s ORDER BY id LIMIT %[2]s",
	"SELECT SLEEP(%[1]s) IS NULL",
}

// FuzzExtremeIntegers runs expressions and clauses over extreme integers
// (issue 17). Any error is fine so long as it is a MySQL error that is not
// the catch-all 1105 and nothing panics (no recover: a panic fails the
// fuzz run). Each statement must finish: max_execution_time bounds SLEEP.
func FuzzExtremeIntegers(f *testing.F) {
	for i := range intExprTemplates {
		f.Add(uint8(i), uint8(14), uint8(13), uint8(11), "")
		f.Add(uint8(i), uint8(12), uint8(0), uint8(1), "")
		f.Add(uint8(i), uint8(17), uint8(18), uint8(26), "")
	}
	_, s := newHostileSession(f)
	mustExec(f, s, "CREATE TABLE t (id BIGINT PRIMARY KEY, n INT, u BIGINT UNSIGNED, d DECIMAL(10,2))")
	mustExec(f, s, "INSERT INTO t VALUES (1, 1, 1, 1), (2, 2, 2, 2)")
	mustExec(f, s, "SET max_execution_time = 100")
	mustExec(f, s, "SET max_allowed_packet = 1048576")
	f.Fuzz(func(t *testing.T, tmpl, a, b, c uint8, raw string) {
		arg := func(k uint8) string {
			if raw != "" && k == 255 && !strings.ContainsAny(raw, ";'\"\\`") {
				return raw
			}
			return extremeInts[int(k)%len(extremeInts)]
		}
		q := fmt.Sprintf(intExprTemplates[int(tmpl)%len(intExprTemplates)], arg(a), arg(b), arg(c))
		_, err := s.Exec(context.Background(), q, nil)
		if err == nil {
			return
		}
		e, ok := sqlerr.As(err)
		if !ok {
			t.Fatalf("%s: not a MySQL error: %v", q, err)
		}
		if e.Code == sqlerr.ErUnknown {
			t.Fatalf("%s: internal error %v", q, err)
		}
	})
}
