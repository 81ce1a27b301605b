package server

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestSeed003ThroughMySQLClient sends seed 003's text unchanged (DELIMITER
// $$ ... CREATE PROCEDURE test() BEGIN ... END $$ ... call test();) through
// the mariadb/mysql command-line client to plrun serve, async commit on and
// off, and checks the 1000 rows.
func TestSeed003ThroughMySQLClient(t *testing.T) {
	bin, err := exec.LookPath("mariadb")
	if err != nil {
		if bin, err = exec.LookPath("mysql"); err != nil {
			t.Skip("no mariadb/mysql client binary (CI installs mariadb-client)")
		}
	}
	for _, async := range []string{"ON", "OFF"} {
		t.Run("async="+async, func(t *testing.T) {
			ts := startServer(t, Config{}, nil)
			host, port := hostPort(t, ts.addr)
			script := "create table t0 (a int primary key);\n" +
				"DELIMITER $$\nCREATE PROCEDURE test()\nBEGIN\nDECLARE counter INT DEFAULT 1;\nWHILE counter <= 1000 DO\n" +
				"    INSERT INTO t0 (a) VALUES (counter);\n    commit;\n    SET counter = counter + 1;\nEND WHILE;\nEND $$\nDELIMITER ;\n" +
				fmt.Sprintf("SET ob_enable_pl_async_commit=%s;\ncall test();\n", async) +
				"select count(*), min(a), max(a), sum(a) from t0;\n"
			cmd := exec.Command(bin, "--protocol=TCP", "-h", host, "-P", port, "-uroot@test", "-proot", "--batch", "--ssl=0", "test")
			cmd.Stdin = strings.NewReader(script)
			got := runClient(t, 60*time.Second, cmd)
			want := "count(*)\tmin(a)\tmax(a)\tsum(a)\n1000\t1\t1000\t500500\n"
			if got != want {
				t.Fatalf("client output:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
