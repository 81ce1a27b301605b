package server

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// The stock clients over TLS (CI installs mariadb-client and
// python3-pymysql; a test skips only when its client is absent).

func mariadbClient(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("mariadb")
	if err != nil {
		if bin, err = exec.LookPath("mysql"); err != nil {
			t.Skip("no mariadb/mysql client binary (CI installs mariadb-client)")
		}
	}
	return bin
}

// mariadbRun runs the client against addr with args, returning its output
// and whether it exited 0.
func mariadbRun(t *testing.T, bin, addr string, args ...string) (string, bool) {
	t.Helper()
	host, port := hostPort(t, addr)
	cmd := exec.Command(bin, append([]string{"--protocol=TCP", "-h", host, "-P", port, "-uroot", "-proot", "--batch"}, args...)...)
	cmd.Env = append(cmd.Environ(), "MYSQL_HOME=/nonexistent", "HOME=/nonexistent") // no option files
	done := make(chan struct{})
	timer := time.AfterFunc(30*time.Second, func() { _ = cmd.Process.Kill(); close(done) })
	out, err := cmd.CombinedOutput()
	if !timer.Stop() {
		<-done
		t.Fatalf("%v: no exit after 30s\n%s", cmd.Args, out)
	}
	return string(out), err == nil
}

// TestMariadbClientTLS: `mariadb --ssl` connects and `status` prints the
// cipher; --ssl-verify-server-cert with the generated CA accepts the
// certificate for 127.0.0.1 and localhost; under caching_sha2_password the
// client's full authentication over TLS works and so does the fast one
// that follows; require_secure_transport refuses the client without TLS
// with 3159.
func TestMariadbClientTLS(t *testing.T) {
	bin := mariadbClient(t)
	cfg, ca := testTLS(t)
	ts := startServerAs(t, Config{TLS: cfg, AuthPlugin: mysql.AUTH_CACHING_SHA2_PASSWORD}, map[string]string{"have_ssl": "YES"})
	out, ok := mariadbRun(t, bin, ts.addr, "--ssl", "-e", "status")
	if !ok || !strings.Contains(out, "SSL:\t\t\tCipher in use is TLS_") {
		t.Fatalf("--ssl status:\n%s", out)
	}
	out, ok = mariadbRun(t, bin, ts.addr, "--ssl", "-e", "SHOW STATUS LIKE 'Ssl_version'")
	if !ok || !strings.Contains(out, "Ssl_version\tTLSv1.3") {
		t.Fatalf("second (fast auth) login:\n%s", out)
	}
	out, ok = mariadbRun(t, bin, ts.addr, "--ssl-verify-server-cert", "--ssl-ca="+ca, "-e", "SELECT 1")
	if !ok {
		t.Fatalf("--ssl-verify-server-cert 127.0.0.1:\n%s", out)
	}
	_, port := hostPort(t, ts.addr)
	cmd := exec.Command(bin, "--protocol=TCP", "-h", "localhost", "-P", port, "-uroot", "-proot", "--ssl-verify-server-cert", "--ssl-ca="+ca, "-e", "SELECT 1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("--ssl-verify-server-cert localhost: %v\n%s", err, out)
	}
	if _, ok = mariadbRun(t, bin, ts.addr, "--ssl", "-e", "SET GLOBAL require_secure_transport = ON"); !ok {
		t.Fatal("SET GLOBAL require_secure_transport")
	}
	out, ok = mariadbRun(t, bin, ts.addr, "--ssl=0", "-e", "SELECT 1")
	if ok || !strings.Contains(out, "ERROR 3159 (HY000): Connections using insecure transport are prohibited while --require_secure_transport=ON.") {
		t.Fatalf("plain login under require_secure_transport:\n%s", out)
	}
}

// TestPyMySQLTLS: pymysql with ssl={'ca': ...} (verifying the certificate)
// over TLS, also for caching_sha2_password's full authentication; and
// without TLS, where pymysql asks for the RSA public key.
func TestPyMySQLTLS(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import pymysql").Run(); err != nil {
		t.Skipf("%s cannot import pymysql (CI installs python3-pymysql): %v", python, err)
	}
	cfg, ca := testTLS(t)
	ts := startServer(t, Config{TLS: cfg, AuthPlugin: mysql.AUTH_CACHING_SHA2_PASSWORD, Users: Users{"root": "root", "bob": "pw"}}, nil)
	host, port := hostPort(t, ts.addr)
	script := `
import sys, pymysql
for i in range(2):
    c = pymysql.connect(host=sys.argv[1], port=int(sys.argv[2]), user='root', password='root', database='test',
                        ssl={'ca': sys.argv[3]})  # verifies the certificate and its name
    cur = c.cursor()
    cur.execute("SHOW STATUS LIKE 'Ssl_version'")
    print(cur.fetchone()[1])
    c.close()
c = pymysql.connect(host=sys.argv[1], port=int(sys.argv[2]), user='bob', password='pw', database='test')
cur = c.cursor()
cur.execute("SELECT 1")
print(cur.fetchone()[0])
`
	out, err := exec.Command(python, "-c", script, host, port, ca).CombinedOutput()
	if err != nil || string(out) != "TLSv1.3\nTLSv1.3\n1\n" {
		t.Fatalf("pymysql: %v\n%s", err, out)
	}
}
