package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLoadDataLocal: LOAD DATA LOCAL INFILE over the protocol's LOCAL
// INFILE request, with go-sql-driver (allowAllFiles), the mysql client
// (--local-infile=1; refused without it) and pymysql (local_infile=True).
func TestLoadDataLocal(t *testing.T) {
	ts := startServer(t, Config{}, nil)
	dir := t.TempDir()
	file := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(file, []byte("1,\"a,b\"\n2,\\N\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := ts.open(t, "allowAllFiles=true")
	mustExec(t, db, "CREATE TABLE l (i INT PRIMARY KEY, s VARCHAR(10))")
	res, err := db.Exec("LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE l FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Fatalf("go-sql-driver LOAD DATA LOCAL: %d rows affected, want 2", n)
	}
	var s string
	if err := db.QueryRow("SELECT CONCAT(i, '=', COALESCE(s, 'NULL')) FROM l WHERE i = 1").Scan(&s); err != nil || s != "1=a,b" {
		t.Fatalf("row 1 = %q, %v", s, err)
	}
	// LOCAL implies IGNORE: the same rows again are skipped, not an error.
	if res, err = db.Exec("LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE l FIELDS TERMINATED BY ','"); err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 0 {
		t.Fatalf("repeated LOAD DATA LOCAL: %d rows affected, want 0", n)
	}

	host, port := hostPort(t, ts.addr)
	if bin, err := exec.LookPath("mariadb"); err == nil {
		load := "LOAD DATA LOCAL INFILE '" + file + "' REPLACE INTO TABLE l FIELDS TERMINATED BY ',' ENCLOSED BY '\"' (i, @s) SET s = UPPER(@s); SELECT s FROM l ORDER BY i"
		got := runClient(t, 30*time.Second, exec.Command(bin, "--protocol=TCP", "-h", host, "-P", port, "-uroot", "-proot", "--ssl=0", "--local-infile=1", "-N", "test", "-e", load))
		if got != "A,B\nNULL\n" {
			t.Fatalf("mariadb --local-infile=1 printed %q", got)
		}
		cmd := exec.Command(bin, "--protocol=TCP", "-h", host, "-P", port, "-uroot", "-proot", "--ssl=0", "--local-infile=0", "test", "-e", load)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "ERROR 1148 (42000)") {
			t.Fatalf("mariadb --local-infile=0: %v %s, want error 1148", err, out)
		}
	}
	if err := exec.Command(debianPython, "-c", "import pymysql").Run(); err == nil {
		script := `import sys, pymysql
c = pymysql.connect(host=sys.argv[1], port=int(sys.argv[2]), user='root', password='root', database='test', local_infile=True)
cur = c.cursor()
print(cur.execute("LOAD DATA LOCAL INFILE '` + file + `' REPLACE INTO TABLE l FIELDS TERMINATED BY ',' ENCLOSED BY '\"' (@i, s) SET i = @i + 10"))
cur.execute('SELECT COUNT(*) FROM l')
print(cur.fetchone()[0])
`
		got := clientOutput(t, 30*time.Second, exec.Command(debianPython, "-c", script, host, port))
		if got != "2\n4\n" {
			t.Fatalf("pymysql printed %q", got)
		}
	}
}
