package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/plrun/plrun/metrics"
)

// metricsFlags are --metrics-listen and --pprof of `plrun serve`.
type metricsFlags struct {
	listen *string
	pprof  *bool
}

func registerMetricsFlags(fs *flag.FlagSet) *metricsFlags {
	return &metricsFlags{
		listen: fs.String("metrics-listen", "", "address to serve Prometheus /metrics on, e.g. 127.0.0.1:9104 (none when empty)"),
		pprof:  fs.Bool("pprof", false, "also serve net/http/pprof under /debug/pprof/ on the --metrics-listen address"),
	}
}

// check refuses --pprof without a listener to put it on: a profiler asked
// for and silently not served would be a setting ignored.
func (f *metricsFlags) check() error {
	if *f.pprof && *f.listen == "" {
		return errors.New("--pprof needs --metrics-listen (the profiler is served on the metrics listener)")
	}
	return nil
}

// metricsListener is the running metrics HTTP server; its Close stops it.
type metricsListener struct {
	srv    *http.Server
	served chan error
}

// start listens on --metrics-listen and serves there until Close; it
// returns nil, nil when the flag is empty (nothing is served).
func (f *metricsFlags) start(src metrics.Source, stderr io.Writer) (*metricsListener, error) {
	if *f.listen == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", *f.listen)
	if err != nil {
		return nil, fmt.Errorf("--metrics-listen: %w", err)
	}
	ml := &metricsListener{
		srv:    &http.Server{Handler: metrics.NewMux(src, *f.pprof), ReadHeaderTimeout: 10 * time.Second},
		served: make(chan error, 1),
	}
	go func() { ml.served <- ml.srv.Serve(ln) }()
	what := "metrics"
	if *f.pprof {
		what = "metrics and pprof"
	}
	fmt.Fprintf(stderr, "plrun: serving %s on http://%s/metrics\n", what, ln.Addr())
	return ml, nil
}

// Close lets scrapes in flight finish (briefly), then closes the listener
// and every connection and waits for the server's goroutine.
func (ml *metricsListener) Close() error {
	if ml == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := ml.srv.Shutdown(ctx); err != nil {
		ml.srv.Close() // a long profile or a stuck client: cut it
	}
	if err := <-ml.served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
