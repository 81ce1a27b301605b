package metrics

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMux: /metrics always; /debug/pprof/ only with pprof; nothing else.
func TestMux(t *testing.T) {
	get := func(mux *http.ServeMux, path string) (int, string) {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	for _, withPprof := range []bool{false, true} {
		mux := NewMux(fakeSource{}, withPprof)
		if code, body := get(mux, "/metrics"); code != 200 || !strings.Contains(body, "plrun_log_durable_lsn") || !strings.Contains(body, "go_goroutines") {
			t.Errorf("pprof=%t: /metrics %d %.200q", withPprof, code, body)
		}
		wantPprof := http.StatusNotFound
		if withPprof {
			wantPprof = http.StatusOK
		}
		for _, path := range []string{"/debug/pprof/", "/debug/pprof/goroutine?debug=1", "/debug/pprof/cmdline"} {
			if code, _ := get(mux, path); code != wantPprof {
				t.Errorf("pprof=%t: %s answered %d, want %d", withPprof, path, code, wantPprof)
			}
		}
		if code, _ := get(mux, "/"); code != http.StatusNotFound {
			t.Errorf("pprof=%t: / answered %d", withPprof, code)
		}
	}
}
