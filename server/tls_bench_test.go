package server

import (
	gosql "database/sql"
	"slices"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// What TLS costs: a login (a new connection per operation) and a point
// SELECT on an open connection, without and with TLS, and the
// caching_sha2_password fast authentication over TLS.
//
//	go test ./server -run XXX -bench 'BenchmarkTLS' -benchtime 2s

func benchQueries(b *testing.B, db *gosql.DB) {
	b.Helper()
	if _, err := db.Exec("CREATE TABLE IF NOT EXISTS bt (id INT PRIMARY KEY, v INT)"); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec("REPLACE INTO bt VALUES (1, 1)"); err != nil {
		b.Fatal(err)
	}
	timed(b, func() error {
		var v int
		return db.QueryRow("SELECT v FROM bt WHERE id = 1").Scan(&v)
	})
}

// timed runs op b.N times and reports ops/s and p50/p95/p99 latency.
func timed(b *testing.B, op func() error) {
	b.Helper()
	b.ReportAllocs()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		t0 := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "ops/s")
	b.ReportMetric(q(0.50), "p50-us")
	b.ReportMetric(q(0.95), "p95-us")
	b.ReportMetric(q(0.99), "p99-us")
}

func benchServer(b *testing.B, withTLS bool, plugin string) (*testServer, string) {
	var cfg Config
	var ca string
	if withTLS {
		cfg.TLS, ca = testTLS(b)
	}
	cfg.AuthPlugin = plugin
	return startServer(b, cfg, nil), ca
}

func BenchmarkTLSLogin(b *testing.B) {
	for _, tc := range []struct {
		name   string
		tls    bool
		plugin string
	}{
		{"plain/native", false, mysql.AUTH_NATIVE_PASSWORD},
		{"tls/native", true, mysql.AUTH_NATIVE_PASSWORD},
		{"tls/caching_sha2_fast", true, mysql.AUTH_CACHING_SHA2_PASSWORD},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ts, ca := benchServer(b, tc.tls, tc.plugin)
			dsn := ts.dsn("root", "root", "test")
			if tc.tls {
				dsn = ts.tlsDSN(b, "bench-"+tc.plugin, ca, "root", "root")
			}
			db, err := gosql.Open("mysql", dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			db.SetMaxIdleConns(0) // every Ping logs in anew
			if err := db.Ping(); err != nil {
				b.Fatal(err) // the first login fills the fast-auth cache
			}
			timed(b, db.Ping)
		})
	}
}

func BenchmarkTLSPointSelect(b *testing.B) {
	for _, withTLS := range []bool{false, true} {
		name := "plain"
		if withTLS {
			name = "tls"
		}
		b.Run(name, func(b *testing.B) {
			ts, ca := benchServer(b, withTLS, "")
			dsn := ts.dsn("root", "root", "test")
			if withTLS {
				dsn = ts.tlsDSN(b, "bench-select", ca, "root", "root")
			}
			db, err := gosql.Open("mysql", dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			benchQueries(b, db)
		})
	}
}
