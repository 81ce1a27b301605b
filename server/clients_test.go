package server

import (
	"bytes"
	"context"
	gosql "database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// These tests run the real clients the seeds measure with against a
// server on a free port: the mariadb/mysql command-line client, pymysql
// (the seed's ob_elr.py) and sysbench (oltp_inventory.lua). CI installs
// them (mariadb-client, python3-pymysql, sysbench); a test skips only when
// its client is absent.

func repoPath(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func hostPort(t *testing.T, addr string) (string, string) {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	return host, port
}

func runClient(t *testing.T, timeout time.Duration, cmd *exec.Cmd) string {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out.String())
		}
	case <-time.After(timeout):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%s: no exit after %v\n%s", strings.Join(cmd.Args, " "), timeout, out.String())
	}
	return out.String()
}

func TestMySQLCommandLineClient(t *testing.T) {
	bin, err := exec.LookPath("mariadb")
	if err != nil {
		if bin, err = exec.LookPath("mysql"); err != nil {
			t.Skip("no mariadb/mysql client binary (CI installs mariadb-client)")
		}
	}
	ts := startServer(t, Config{}, nil)
	host, port := hostPort(t, ts.addr)
	script, err := os.Open(repoPath(t, "testdata/server/client.sql"))
	if err != nil {
		t.Fatal(err)
	}
	defer script.Close()
	cmd := exec.Command(bin, "--protocol=TCP", "-h", host, "-P", port, "-uroot@test", "-proot", "--batch", "--ssl=0", "test")
	cmd.Stdin = script
	got := runClient(t, 30*time.Second, cmd)
	want := "id\tname\tqty\tprice\n1\tapple\t9\t0.50\n2\tpear\t5\t1.25\n3\tplum\t0\tNULL\nn\ttotal\n3\t14\n"
	if got != want {
		t.Fatalf("client output:\n%s\nwant:\n%s", got, want)
	}
}

func TestPyMySQLHotRowScript(t *testing.T) {
	const python = "/usr/bin/python3" // Debian's python3-pymysql belongs to it
	if err := exec.Command(python, "-c", "import pymysql").Run(); err != nil {
		t.Skipf("%s cannot import pymysql (CI installs python3-pymysql): %v", python, err)
	}
	ts := startServer(t, Config{}, map[string]string{"enable_early_lock_release": "ON"})
	db := ts.open(t)
	// The seed's table and row.
	mustExec(t, db, "CREATE TABLE `sbtest1` (`id` int(11) NOT NULL AUTO_INCREMENT, `k` int(11) NOT NULL DEFAULT '0', `c` char(120) NOT NULL DEFAULT '', `pad` char(60) NOT NULL DEFAULT '', PRIMARY KEY (`id`))")
	mustExec(t, db, "insert into sbtest1 values(1,0,'aa','aa')")
	const parallel, batch = 8, 40
	host, port := hostPort(t, ts.addr)
	cmd := exec.Command(python, repoPath(t, "scripts/ob_elr.py"))
	cmd.Env = append(os.Environ(), "MYSQL_HOST="+host, "MYSQL_PORT="+port, "MYSQL_USER=root@test",
		"MYSQL_PASSWORD=root", "MYSQL_DATABASE=test", fmt.Sprintf("PARALLEL=%d", parallel), fmt.Sprintf("BATCH=%d", batch))
	out := runClient(t, 60*time.Second, cmd)
	if !strings.Contains(out, fmt.Sprintf("Total Updates: %d", parallel*batch)) {
		t.Fatalf("unexpected script output:\n%s", out)
	}
	var k int
	if err := db.QueryRow("select k from sbtest1 where id=1").Scan(&k); err != nil {
		t.Fatal(err)
	}
	if k != parallel*batch {
		t.Fatalf("k = %d after %d threads x %d updates, want %d\n%s", k, parallel, batch, parallel*batch, out)
	}
	t.Logf("ob_elr.py: %s", strings.ReplaceAll(strings.TrimSpace(out), "\n", "; "))
}

func TestSysbenchOltpInventory(t *testing.T) {
	bin, err := exec.LookPath("sysbench")
	if err != nil {
		t.Skip("no sysbench binary (CI installs sysbench)")
	}
	ts := startServer(t, Config{}, map[string]string{"enable_early_lock_release": "ON"})
	host, port := hostPort(t, ts.addr)
	const tables, tableSize = 2, 10
	sb := func(timeout time.Duration, args ...string) string {
		base := []string{repoPath(t, "scripts/oltp_inventory.lua"), "--db-driver=mysql",
			"--mysql-host=" + host, "--mysql-port=" + port, "--mysql-user=root", "--mysql-password=root",
			"--mysql-db=test", "--mysql-ssl=off", fmt.Sprintf("--tables=%d", tables), fmt.Sprintf("--table_size=%d", tableSize),
			"--hotspot_rows=3"}
		return runClient(t, timeout, exec.Command(bin, append(base, args...)...))
	}
	sb(30*time.Second, "prepare")

	db := ts.open(t)
	sumC := func() int64 {
		var total int64
		for i := 1; i <= tables; i++ {
			var s int64
			if err := db.QueryRow(fmt.Sprintf("SELECT SUM(c) FROM sbtest%d", i)).Scan(&s); err != nil {
				t.Fatal(err)
			}
			total += s
		}
		return total
	}
	if got := sumC(); got != tables*tableSize {
		t.Fatalf("after prepare sum(c) = %d, want %d", got, tables*tableSize)
	}
	writes := regexp.MustCompile(`write:\s+(\d+)`)
	before := sumC()
	for _, mode := range [][]string{
		{"--inventory_hotspot=on", "--use_ps=on", "--time=3"},  // prepared statements with the hot-row hint
		{"--inventory_hotspot=on", "--use_ps=off", "--time=1"}, // con:query with the hint, as the article's script
		{"--inventory_hotspot=off", "--use_ps=on", "--oltp_skip_trx=off", "--time=1"},
	} {
		out := sb(60*time.Second, append([]string{"run", "--threads=4"}, mode...)...)
		m := writes.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%v: no write count in sysbench output:\n%s", mode, out)
		}
		n, _ := strconv.ParseInt(m[1], 10, 64)
		after := sumC()
		if n == 0 || after-before != n {
			t.Fatalf("%v: sysbench reports %d writes, sum(c) grew by %d\n%s", mode, n, after-before, out)
		}
		before = after
	}
	sb(30*time.Second, "cleanup")
	_, err = db.Exec("SELECT 1 FROM sbtest1")
	mysqlError(t, err, 1146, "42S02")
}

// TestMainServe starts `plrun serve` through run (Main without the signal):
// flags, users file, --set, and a clean stop that closes the engine.
func TestMainServe(t *testing.T) {
	dir := t.TempDir()
	usersFile := filepath.Join(dir, "users")
	if err := os.WriteFile(usersFile, []byte("# logins\nalice:secret\nbob:\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	var stderr bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "data"),
			"--users-file", usersFile, "--max-connections", "10", "--set", "enable_early_lock_release=ON"},
			&stderr, func(a net.Addr) { addrs <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	db, err := gosql.Open("mysql", fmt.Sprintf("alice:secret@tcp(%s)/test", addr))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE t (id INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	var v string
	if err := db.QueryRow("SHOW VARIABLES LIKE 'enable_early_lock_release'").Scan(new(string), &v); err != nil {
		t.Fatal(err)
	}
	if !strings.EqualFold(v, "ON") && v != "1" {
		t.Errorf("enable_early_lock_release = %q, want ON", v)
	}
	root, _ := gosql.Open("mysql", fmt.Sprintf("root:root@tcp(%s)/test", addr))
	mysqlError(t, root.Ping(), 1045, "28000") // the users file replaced the default login
	root.Close()
	db.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	if !strings.Contains(stderr.String(), `msg="plrun stopped"`) {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// TestMySQLClientInfoLine: the OK packet carries MySQL's info string, which
// the mysql client prints under "Query OK" (-vvv), as MariaDB's server sends
// it for multi-row INSERT and UPDATE.
func TestMySQLClientInfoLine(t *testing.T) {
	bin, err := exec.LookPath("mariadb")
	if err != nil {
		if bin, err = exec.LookPath("mysql"); err != nil {
			t.Skip("no mariadb/mysql client binary (CI installs mariadb-client)")
		}
	}
	ts := startServer(t, Config{}, nil)
	host, port := hostPort(t, ts.addr)
	cmd := exec.Command(bin, "--protocol=TCP", "-h", host, "-P", port, "-uroot", "-proot", "-vvv", "--ssl=0", "test",
		"-e", "CREATE TABLE info_t (id INT PRIMARY KEY, v INT); INSERT INTO info_t VALUES (1, 1), (2, 2); UPDATE info_t SET v = 2")
	got := runClient(t, 30*time.Second, cmd)
	for _, want := range []string{"Records: 2  Duplicates: 0  Warnings: 0", "Rows matched: 2  Changed: 1  Warnings: 0"} {
		if !strings.Contains(got, want) {
			t.Errorf("client output lacks %q:\n%s", want, got)
		}
	}
}
