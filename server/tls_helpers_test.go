package server

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"os"
	"sync"
	"testing"
)

// testRSAKey is one RSA key for every test server (generating one per
// test would cost more than the tests).
var testRSAKey = func() func(t testing.TB) *rsa.PrivateKey {
	var once sync.Once
	var key *rsa.PrivateKey
	var err error
	return func(t testing.TB) *rsa.PrivateKey {
		t.Helper()
		once.Do(func() { key, err = rsa.GenerateKey(rand.Reader, 2048) })
		if err != nil {
			t.Fatal(err)
		}
		return key
	}
}()

// testTLS generates certificates into a temporary folder as `plrun serve`
// does, and returns the server's TLS configuration and the CA file.
func testTLS(t testing.TB) (*tls.Config, string) {
	t.Helper()
	dir := t.TempDir()
	ca, cert, key, err := autoCerts(dir)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, ca
}

// caPool is a pool holding the CA certificate in file ca.
func caPool(t testing.TB, ca string) *x509.CertPool {
	t.Helper()
	pem, err := os.ReadFile(ca)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("%s: no certificate", ca)
	}
	return pool
}
