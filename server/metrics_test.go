package server

import (
	"bytes"
	"context"
	gosql "database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// servedMain is `plrun serve` run through run() with extra flags.
type servedMain struct {
	addr       string // the MySQL listener
	metricsURL string // http://host:port/metrics, "" if none was printed
	stderr     *syncBuffer
	stop       func() error
}

var metricsLine = regexp.MustCompile(`plrun: serving metrics(?: and pprof)? on (http://\S+/metrics)`)

func startMain(t *testing.T, flags ...string) *servedMain {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	sm := &servedMain{stderr: &syncBuffer{}}
	args := append([]string{"serve", "--listen", "127.0.0.1:0", "--data", filepath.Join(t.TempDir(), "data")}, flags...)
	go func() { done <- run(ctx, args, sm.stderr, func(a net.Addr) { addrs <- a }) }()
	select {
	case a := <-addrs:
		sm.addr = a.String()
	case err := <-done:
		cancel()
		t.Fatalf("serve ended: %v\n%s", err, sm.stderr)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	if m := metricsLine.FindStringSubmatch(sm.stderr.String()); m != nil {
		sm.metricsURL = m[1]
	}
	var once sync.Once
	var stopErr error
	sm.stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(30 * time.Second):
				stopErr = fmt.Errorf("serve did not stop")
			}
		})
		return stopErr
	}
	t.Cleanup(func() {
		if err := sm.stop(); err != nil {
			t.Error(err)
		}
	})
	return sm
}

// scrape is one GET of /metrics, parsed as Prometheus' text format.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parsing %s: %v", url, err)
	}
	return families
}

// value is a counter's or gauge's value, or a histogram's sample count;
// with a label pair, that series'.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, label ...string) float64 {
	t.Helper()
	f := fams[name]
	if f == nil {
		t.Fatalf("metric %s not exposed", name)
	}
	for _, m := range f.GetMetric() {
		if len(label) == 2 {
			found := false
			for _, lp := range m.GetLabel() {
				found = found || lp.GetName() == label[0] && lp.GetValue() == label[1]
			}
			if !found {
				continue
			}
		}
		switch f.GetType() {
		case dto.MetricType_COUNTER:
			return m.GetCounter().GetValue()
		case dto.MetricType_GAUGE:
			return m.GetGauge().GetValue()
		case dto.MetricType_HISTOGRAM:
			return float64(m.GetHistogram().GetSampleCount())
		}
	}
	t.Fatalf("metric %s%v has no series", name, label)
	return 0
}

// waitMetric scrapes until cond holds of name's value (bounded).
func waitMetric(t *testing.T, url, name string, cond func(float64) bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := value(t, scrape(t, url), name)
		if cond(v) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s stayed at %v", name, v)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestMetricsEndpoint provokes each event the endpoint reports (commits,
// a lock wait, a lock-wait timeout, a deadlock, an ELR dependency, a
// hot-row group, a checkpoint, a slow query, a failed login, a dropped
// client, a refusal past max_connections), scrapes /metrics and checks
// each metric moved.
func TestMetricsEndpoint(t *testing.T) {
	sm := startMain(t, "--metrics-listen", "127.0.0.1:0", "--pprof", "--max-connections", "8")
	if sm.metricsURL == "" {
		t.Fatalf("no metrics address on stderr:\n%s", sm.stderr)
	}
	url := sm.metricsURL
	before := scrape(t, url)
	ctx := context.Background()

	db, err := gosql.Open("mysql", fmt.Sprintf("root:root@tcp(%s)/test", sm.addr))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	exec := func(c *gosql.Conn, q string) {
		t.Helper()
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	inBackground := func(c *gosql.Conn, q string) chan error {
		done := make(chan error, 1)
		go func() { _, err := c.ExecContext(ctx, q); done <- err }()
		return done
	}
	exec(a, "CREATE TABLE m (id INT PRIMARY KEY, v INT)")
	exec(a, "INSERT INTO m VALUES (1, 0), (2, 0)")

	// A lock wait, granted at the holder's commit. While it waits its
	// session holds a worker and runs a statement.
	exec(a, "BEGIN")
	exec(a, "UPDATE m SET v = v + 1 WHERE id = 1")
	waited := inBackground(b, "UPDATE m SET v = v + 1 WHERE id = 1")
	waitMetric(t, url, "plrun_lock_waiters", func(v float64) bool { return v == 1 })
	during := scrape(t, url)
	if value(t, during, "plrun_workers_busy") < 1 || value(t, during, "plrun_threads_running") < 1 {
		t.Errorf("during a lock wait: workers busy %v, threads running %v",
			value(t, during, "plrun_workers_busy"), value(t, during, "plrun_threads_running"))
	}
	exec(a, "COMMIT")
	if err := <-waited; err != nil {
		t.Fatal(err)
	}

	// A lock-wait timeout.
	exec(a, "BEGIN")
	exec(a, "UPDATE m SET v = v + 1 WHERE id = 1")
	exec(b, "SET SESSION innodb_lock_wait_timeout = 1")
	_, err = b.ExecContext(ctx, "UPDATE m SET v = v + 1 WHERE id = 1")
	mysqlError(t, err, 1205, "HY000")
	exec(a, "ROLLBACK")
	exec(b, "SET SESSION innodb_lock_wait_timeout = 50")

	// A deadlock: b closes the cycle and is refused.
	exec(a, "BEGIN")
	exec(a, "UPDATE m SET v = v + 1 WHERE id = 1")
	exec(b, "BEGIN")
	exec(b, "UPDATE m SET v = v + 1 WHERE id = 2")
	crossed := inBackground(a, "UPDATE m SET v = v + 1 WHERE id = 2")
	waitMetric(t, url, "plrun_lock_waiters", func(v float64) bool { return v == 1 })
	_, err = b.ExecContext(ctx, "UPDATE m SET v = v + 1 WHERE id = 1")
	mysqlError(t, err, 1213, "40001")
	exec(b, "ROLLBACK")
	if err := <-crossed; err != nil {
		t.Fatal(err)
	}
	exec(a, "COMMIT")

	// An ELR dependency: a's commit releases its lock before it is durable
	// (each sync is held 3 s), and b, the next holder, waits for it past
	// _max_elr_dependent_trx_count = 1.
	exec(a, "SET GLOBAL enable_early_lock_release = ON")
	exec(a, "SET GLOBAL _max_elr_dependent_trx_count = 1")
	exec(a, "SET GLOBAL plrun_log_sync_delay_us = 3000000")
	releases := value(t, scrape(t, url), "plrun_elr_early_releases_total")
	first := inBackground(a, "UPDATE m SET v = v + 1 WHERE id = 2")
	waitMetric(t, url, "plrun_elr_early_releases_total", func(v float64) bool { return v > releases })
	exec(b, "UPDATE m SET v = v + 1 WHERE id = 2")
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	exec(a, "SET GLOBAL plrun_log_sync_delay_us = 0")
	exec(a, "SET GLOBAL enable_early_lock_release = OFF")

	// A hot-row group (a leader alone is a group of one).
	exec(a, "SET GLOBAL hotspot = ON")
	exec(a, "UPDATE /*+ COMMIT_ON_SUCCESS ROLLBACK_ON_FAIL TARGET_AFFECT_ROW(1) */ m SET v = v + 1 WHERE id = 1")
	exec(a, "SET GLOBAL hotspot = OFF")

	exec(a, "CHECKPOINT")
	exec(a, "SET SESSION long_query_time = 0.05")
	exec(a, "SELECT SLEEP(0.1)")

	// A failed login, and a logged-in client that drops its connection.
	bad := dialRaw(t, sm.addr)
	if reply := bad.login("root", "wrong", ""); errCode(reply) != 1045 {
		t.Fatalf("bad password: %q", reply)
	}
	dropped := dialRaw(t, sm.addr)
	dropped.login("root", "root", "test")
	_ = dropped.nc.Close()

	// Connections up to --max-connections, then a refusal.
	var extra []*gosql.DB
	defer func() {
		for _, x := range extra {
			x.Close()
		}
	}()
	refused := false
	for range 10 {
		x, _ := gosql.Open("mysql", fmt.Sprintf("root:root@tcp(%s)/test", sm.addr))
		extra = append(extra, x)
		if err := x.Ping(); err != nil {
			mysqlError(t, err, 1040, "08004")
			refused = true
			break
		}
	}
	if !refused {
		t.Fatal("no connection refused past --max-connections 8")
	}
	waitMetric(t, url, "plrun_aborted_clients_total", func(v float64) bool {
		return v > value(t, before, "plrun_aborted_clients_total")
	})

	after := scrape(t, url)
	moved := func(name string, atLeast float64, label ...string) {
		t.Helper()
		if d := value(t, after, name, label...) - value(t, before, name, label...); d < atLeast {
			t.Errorf("%s%v moved by %v, want at least %v", name, label, d, atLeast)
		}
	}
	moved("plrun_commit_latency_seconds", 5)
	moved("plrun_log_sync_latency_seconds", 1)
	moved("plrun_commit_group_size_records", 1)
	moved("plrun_log_records_total", 5)
	moved("plrun_log_groups_total", 1)
	moved("plrun_log_written_bytes_total", 1)
	moved("plrun_log_syncs_total", 1)
	moved("plrun_log_last_lsn", 5)
	moved("plrun_log_durable_lsn", 5)
	moved("plrun_commits_total", 5)
	moved("plrun_rollbacks_total", 2)
	moved("plrun_elr_early_releases_total", 1)
	moved("plrun_elr_dependent_waits_total", 1)
	moved("plrun_elr_dependent_wait_seconds", 1)
	moved("plrun_hotrow_groups_total", 1)
	moved("plrun_hotrow_group_size_members", 1)
	moved("plrun_lock_waits_total", 3) // granted, timed out, the deadlock's other side
	moved("plrun_lock_wait_seconds", 3)
	moved("plrun_lock_wait_timeouts_total", 1)
	moved("plrun_deadlocks_total", 1)
	moved("plrun_statements_total", 10, "kind", "update")
	moved("plrun_statements_total", 1, "kind", "insert")
	moved("plrun_statements_total", 1, "kind", "create_table")
	moved("plrun_questions_total", 20)
	moved("plrun_queries_total", 20)
	moved("plrun_slow_queries_total", 1)
	moved("plrun_connections_total", 5)
	moved("plrun_max_used_connections", 2)
	moved("plrun_aborted_connects_total", 2) // the failed login, the refusal
	moved("plrun_aborted_clients_total", 1)
	moved("plrun_connection_errors_max_connections_total", 1)
	moved("plrun_received_bytes_total", 100)
	moved("plrun_sent_bytes_total", 100)
	moved("plrun_checkpoints_total", 1)
	moved("plrun_checkpoint_duration_seconds", 1)
	if v := value(t, after, "plrun_threads_connected"); v < 2 {
		t.Errorf("plrun_threads_connected = %v with a and b open", v)
	}
	if v := value(t, after, "plrun_workers_limit"); v < 1 {
		t.Errorf("plrun_workers_limit = %v", v)
	}
	if value(t, after, "plrun_log_durable_lsn") != value(t, after, "plrun_log_last_lsn") {
		t.Errorf("idle, yet durable LSN %v < last LSN %v", value(t, after, "plrun_log_durable_lsn"), value(t, after, "plrun_log_last_lsn"))
	}
	// The endpoint and SHOW GLOBAL STATUS read the same counters: with
	// nothing else running they agree.
	statusRows, err := a.QueryContext(ctx, "SHOW GLOBAL STATUS")
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]string{}
	for statusRows.Next() {
		var name, v string
		if err := statusRows.Scan(&name, &v); err != nil {
			t.Fatal(err)
		}
		shown[name] = v
	}
	statusRows.Close()
	now := scrape(t, url)
	for status, metric := range map[string][]string{
		"Innodb_deadlocks": {"plrun_deadlocks_total"}, "Innodb_row_lock_waits": {"plrun_lock_waits_total"},
		"Innodb_row_lock_timeouts": {"plrun_lock_wait_timeouts_total"}, "Elr_early_releases": {"plrun_elr_early_releases_total"},
		"Elr_dependent_limit_waits": {"plrun_elr_dependent_waits_total"}, "Group_update_groups": {"plrun_hotrow_groups_total"},
		"Plrun_commits": {"plrun_log_records_total"}, "Plrun_log_syncs": {"plrun_log_syncs_total"},
		"Plrun_durable_lsn": {"plrun_log_durable_lsn"}, "Plrun_checkpoints": {"plrun_checkpoints_total"},
		"Com_update": {"plrun_statements_total", "kind", "update"}, "Com_insert": {"plrun_statements_total", "kind", "insert"},
		"Aborted_connects": {"plrun_aborted_connects_total"}, "Slow_queries": {"plrun_slow_queries_total"},
		"Connection_errors_max_connections": {"plrun_connection_errors_max_connections_total"},
	} {
		if got, want := strconv.FormatFloat(value(t, now, metric[0], metric[1:]...), 'f', -1, 64), shown[status]; got != want {
			t.Errorf("%s%v = %s, SHOW GLOBAL STATUS %s = %s", metric[0], metric[1:], got, status, want)
		}
	}
	// The Go runtime and process collectors are registered too.
	for _, name := range []string{"go_goroutines", "process_cpu_seconds_total", "plrun_uptime_seconds"} {
		if after[name] == nil {
			t.Errorf("%s not exposed", name)
		}
	}
}

// TestPprof: /debug/pprof/profile returns a CPU profile only under
// --pprof; without it the path is not found; --pprof alone is refused; and
// without --metrics-listen nothing is served.
func TestPprof(t *testing.T) {
	profile := func(t *testing.T, metricsURL string) (int, []byte) {
		t.Helper()
		resp, err := http.Get(strings.TrimSuffix(metricsURL, "/metrics") + "/debug/pprof/profile?seconds=1")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, body
	}
	t.Run("on", func(t *testing.T) {
		sm := startMain(t, "--metrics-listen", "127.0.0.1:0", "--pprof")
		code, body := profile(t, sm.metricsURL)
		// A CPU profile is gzipped protobuf.
		if code != http.StatusOK || len(body) < 2 || body[0] != 0x1f || body[1] != 0x8b {
			t.Fatalf("profile: %d, %d bytes %q", code, len(body), body[:min(len(body), 40)])
		}
		metricsAddr := strings.TrimPrefix(strings.TrimSuffix(sm.metricsURL, "/metrics"), "http://")
		if err := sm.stop(); err != nil {
			t.Fatal(err)
		}
		// The listener closed with the server.
		if c, err := net.DialTimeout("tcp", metricsAddr, time.Second); err == nil {
			c.Close()
			t.Errorf("metrics listener %s still accepts after shutdown", metricsAddr)
		}
	})
	t.Run("off", func(t *testing.T) {
		sm := startMain(t, "--metrics-listen", "127.0.0.1:0")
		if code, _ := profile(t, sm.metricsURL); code != http.StatusNotFound {
			t.Fatalf("profile without --pprof: %d, want 404", code)
		}
		if len(scrape(t, sm.metricsURL)) == 0 {
			t.Fatal("no metrics")
		}
	})
	t.Run("pprof without listener", func(t *testing.T) {
		var stderr bytes.Buffer
		err := run(context.Background(), []string{"serve", "--listen", "127.0.0.1:0", "--data", t.TempDir(), "--pprof"}, &stderr, nil)
		if err == nil || !strings.Contains(err.Error(), "--metrics-listen") {
			t.Fatalf("--pprof alone: %v", err)
		}
	})
	t.Run("no flag", func(t *testing.T) {
		sm := startMain(t)
		if strings.Contains(sm.stderr.String(), "metrics") {
			t.Fatalf("metrics served without --metrics-listen:\n%s", sm.stderr)
		}
	})
}
