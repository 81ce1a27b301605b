package kv

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/cockroachdb/pebble/v2/bloom"
)

var bloomPolicy = bloom.FilterPolicy(10)

// pebbleLogger routes pebble's messages into plrun's error log: Infof at
// debug level (it reports routine events: "Found 0 WALs"), Errorf as
// errors. Fatalf logs and exits, as pebble requires.
type pebbleLogger struct{ l *slog.Logger }

func (p pebbleLogger) Infof(format string, args ...any) {
	p.l.Debug(fmt.Sprintf(format, args...))
}

func (p pebbleLogger) Errorf(format string, args ...any) {
	p.l.Error(fmt.Sprintf(format, args...))
}

func (p pebbleLogger) Fatalf(format string, args ...any) {
	p.l.Log(context.Background(), slog.LevelError+4, fmt.Sprintf(format, args...))
	os.Exit(1)
}
