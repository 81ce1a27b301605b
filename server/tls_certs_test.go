package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	gosql "database/sql"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gomysql "github.com/go-sql-driver/mysql"
)

// TestAutoCerts: the first start generates a CA and a server certificate
// it signs (for 127.0.0.1 and localhost), keys mode 0600, no temporary
// file left; later starts reuse them; a start that finds no
// server-cert.pem (a crash while generating) generates all again; a
// server certificate without its CA is an error, not a silent rewrite.
func TestAutoCerts(t *testing.T) {
	dir := t.TempDir()
	ca, cert, key, err := autoCerts(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{caKeyFile, serverKeyFile} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, mode %v, want 0600", f, err, st.Mode().Perm())
		}
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(tmp) > 0 {
		t.Errorf("left %v", tmp)
	}
	certPEMBytes, _ := os.ReadFile(cert)
	block, _ := pem.Decode(certPEMBytes)
	leaf, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"127.0.0.1", "localhost", "::1"} {
		if _, err := leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: caPool(t, ca)}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := tls.LoadX509KeyPair(cert, key); err != nil {
		t.Fatal(err)
	}

	if _, _, _, err := autoCerts(dir); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(cert)
	if !bytes.Equal(again, certPEMBytes) {
		t.Error("second start regenerated the certificate")
	}

	if err := os.Remove(cert); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := autoCerts(dir); err != nil {
		t.Fatal(err)
	}
	if again, _ = os.ReadFile(cert); bytes.Equal(again, certPEMBytes) {
		t.Error("no new certificate after server-cert.pem went missing")
	}
	caNow, _ := os.ReadFile(ca)
	if _, err := leaf.Verify(x509.VerifyOptions{DNSName: "localhost", Roots: caPool(t, ca)}); err == nil || len(caNow) == 0 {
		t.Error("the old certificate verifies against the new CA: the CA was not regenerated")
	}

	if err := os.Remove(ca); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := autoCerts(dir); err == nil || !strings.Contains(err.Error(), caCertFile) {
		t.Errorf("missing ca.pem: %v, want an error naming it", err)
	}
}

// TestAutoRSAKey: generated once (0600, with public_key.pem), then reused.
func TestAutoRSAKey(t *testing.T) {
	dir := t.TempDir()
	k1, err := autoRSAKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, rsaPrivateFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("private_key.pem: %v %v", err, st.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(dir, rsaPublicFile)); err != nil {
		t.Fatal(err)
	}
	k2, err := autoRSAKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !k1.Equal(k2) {
		t.Error("second start made a new RSA key")
	}
}

// serveMain runs `plrun serve args...` until the test ends and returns
// its address.
func serveMain(t *testing.T, args ...string) net.Addr {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	var stderr bytes.Buffer
	go func() {
		done <- run(ctx, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...), &stderr, func(a net.Addr) { addrs <- a })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v\n%s", err, stderr.String())
		}
	})
	select {
	case a := <-addrs:
		return a
	case err := <-done:
		done <- err
		t.Fatalf("serve ended: %v\n%s", err, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	return nil
}

func selectString(t *testing.T, db *gosql.DB, q string) string {
	t.Helper()
	var v string
	if err := db.QueryRow(q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

// TestServeTLSFlags: by default `plrun serve` generates its certificates
// into --data and serves TLS with them (have_ssl YES, ssl_* naming the
// files); --tls-cert/--tls-key use the given pair; --tls=off serves
// without (have_ssl DISABLED, a TLS client refused); bad combinations
// are refused before the server starts.
func TestServeTLSFlags(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	addr := serveMain(t, "--data", data)
	ca := filepath.Join(data, caCertFile)
	if err := gomysql.RegisterTLSConfig("plrun-main", &tls.Config{RootCAs: caPool(t, ca)}); err != nil {
		t.Fatal(err)
	}
	defer gomysql.DeregisterTLSConfig("plrun-main")
	db, _ := gosql.Open("mysql", fmt.Sprintf("root:root@tcp(%s)/test?tls=plrun-main", addr))
	defer db.Close()
	for q, want := range map[string]string{
		"SELECT @@have_ssl":    "YES",
		"SELECT @@ssl_ca":      ca,
		"SELECT @@ssl_cert":    filepath.Join(data, serverCertFile),
		"SELECT @@ssl_key":     filepath.Join(data, serverKeyFile),
		"SELECT @@tls_version": "TLSv1.2,TLSv1.3",
	} {
		if got := selectString(t, db, q); got != want {
			t.Errorf("%s = %q, want %q", q, got, want)
		}
	}
	_, err := db.Exec("SET GLOBAL have_ssl = 'NO'")
	mysqlError(t, err, 1238, "HY000")

	// The generated pair given explicitly, from another folder.
	other := t.TempDir()
	for _, f := range []string{serverCertFile, serverKeyFile} {
		b, _ := os.ReadFile(filepath.Join(data, f))
		if err := os.WriteFile(filepath.Join(other, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	data2 := filepath.Join(t.TempDir(), "data")
	addr2 := serveMain(t, "--data", data2, "--tls-cert", filepath.Join(other, serverCertFile), "--tls-key", filepath.Join(other, serverKeyFile))
	db2, _ := gosql.Open("mysql", fmt.Sprintf("root:root@tcp(%s)/test?tls=plrun-main", addr2))
	defer db2.Close()
	if got := selectString(t, db2, "SELECT @@ssl_cert"); got != filepath.Join(other, serverCertFile) {
		t.Errorf("ssl_cert %q", got)
	}
	if _, err := os.Stat(filepath.Join(data2, serverCertFile)); err == nil {
		t.Error("certificates generated although --tls-cert was given")
	}

	addr3 := serveMain(t, "--data", filepath.Join(t.TempDir(), "data"), "--tls=off")
	off, _ := gosql.Open("mysql", fmt.Sprintf("root:root@tcp(%s)/test", addr3))
	defer off.Close()
	if got := selectString(t, off, "SELECT @@have_ssl"); got != "DISABLED" {
		t.Errorf("--tls=off: have_ssl %q", got)
	}
	offTLS, _ := gosql.Open("mysql", fmt.Sprintf("root:root@tcp(%s)/test?tls=plrun-main", addr3))
	defer offTLS.Close()
	if err := offTLS.Ping(); err == nil {
		t.Error("--tls=off: a TLS login succeeded")
	}

	for _, args := range [][]string{
		{"--tls-cert", filepath.Join(other, serverCertFile)},
		{"--tls=maybe"},
		{"--tls=off", "--tls-cert", "c", "--tls-key", "k"},
		{"--set", "have_ssl=YES"},
		{"--tls=off", "--set", "require_secure_transport=ON"},
	} {
		var stderr strings.Builder
		err := run(context.Background(), append([]string{"serve", "--listen", "127.0.0.1:0", "--data", t.TempDir()}, args...), &stderr, nil)
		if err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}
