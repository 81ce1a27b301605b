package main

import (
	"fmt"
	"testing"
)

// seed003 is seed 003 exactly as the issue writes it.
const seed003 = `DELIMITER $$
CREATE PROCEDURE test()
BEGIN
DECLARE counter INT DEFAULT 1;
WHILE counter <= 1000 DO
    INSERT INTO t0 (a) VALUES (counter);
    commit;
    SET counter = counter + 1;
END WHILE;
END $$
DELIMITER ;
SET ob_enable_pl_async_commit=%s;
call test();
`

// TestSeed003SQLProcedure runs seed 003's text unchanged through the REPL
// in batch mode, async commit on and off, and checks the 1000 rows.
func TestSeed003SQLProcedure(t *testing.T) {
	for _, async := range []string{"ON", "OFF"} {
		t.Run("async="+async, func(t *testing.T) {
			dir := newDB(t, "create table t0 (a int primary key)")
			script := fmt.Sprintf(seed003, async) + "select count(*), min(a), max(a), sum(a) from t0;\n"
			st, out, errOut := plrunCLI(t, script, "--data", dir)
			want := "count(*)\tmin(a)\tmax(a)\tsum(a)\n1000\t1\t1000\t500500\n"
			if st != 0 || out != want || errOut != "" {
				t.Errorf("seed 003: status %d\nout %q\nwant %q\nerr %q", st, out, want, errOut)
			}
		})
	}
}
