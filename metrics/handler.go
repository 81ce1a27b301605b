package metrics

import (
	"net/http"
	"net/http/pprof"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// NewRegistry returns a registry of its own holding the plrun collector
// over src and the Go runtime and process collectors.
func NewRegistry(src Source) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		NewCollector(src),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return reg
}

// NewMux returns the metrics listener's routes: /metrics, and with
// withPprof net/http/pprof's handlers under /debug/pprof/. It is a mux of
// its own: nothing registered on http.DefaultServeMux is ever served.
func NewMux(src Source, withPprof bool) *http.ServeMux {
	mux := http.NewServeMux()
	reg := NewRegistry(src)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	if withPprof {
		// The paths and methods net/http/pprof registers on the default
		// mux (symbol takes POST too).
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	return mux
}
