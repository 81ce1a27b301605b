package server

import (
	"crypto/tls"
	"log/slog"
	"runtime"
	"testing"
	"time"
)

// FuzzTLSConnect: any bytes after an SSLRequest (a ClientHello, garbage,
// a truncated record) end the connection phase without a panic or a hang.
func FuzzTLSConnect(f *testing.F) {
	// A whole ClientHello is not a seed: a handshake's key exchange and
	// signature, instrumented for coverage, take the fuzzer seconds each;
	// server/tls_test.go runs real handshakes.
	f.Add([]byte{0x16, 0x03, 0x01, 0x00, 0x05, 1, 0, 0, 1, 0})
	f.Add([]byte("GET / HTTP/1.1\r\n\r\n"))
	f.Add(frame(2, sslRequest(rawCaps)))
	_, cert, key, err := autoCerts(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	pair, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		f.Fatal(err)
	}
	srv, err := New(Config{Engine: fuzzEngine(f), Users: Users{"root": "root"}, Logger: slog.New(slog.DiscardHandler),
		TLS: &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		before := srv.Panics()
		done := make(chan struct{})
		go func() {
			defer close(done)
			srv.ServeConn(newScriptConn(append(frame(1, sslRequest(rawCaps)), data...)))
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second): // a hang, not a slow machine
			buf := make([]byte, 1<<20)
			t.Fatalf("connection phase hangs:\n%s", buf[:runtime.Stack(buf, true)])
		}
		if srv.Panics() != before {
			t.Fatal("connection phase panicked")
		}
	})
}
