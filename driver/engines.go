package driver

import (
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/plrun/plrun/runtime/builtin"

	"github.com/plrun/plrun/engine"
)

// parseDSN turns "file:DIR?name=value..." (or "DIR?...") into an engine
// configuration.
func parseDSN(dsn string) (engine.Config, error) {
	var cfg engine.Config
	path, rawQuery, _ := strings.Cut(strings.TrimPrefix(dsn, "file:"), "?")
	if path == "" {
		return cfg, fmt.Errorf("plrun driver: DSN %q names no directory", dsn)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return cfg, err
	}
	cfg.Dir = filepath.Clean(abs)
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return cfg, fmt.Errorf("plrun driver: DSN %q: %w", dsn, err)
	}
	cfg.Settings = map[string]string{}
	for name, values := range q {
		value := values[len(values)-1]
		switch name {
		case "procs":
			cfg.ProcsDir = value
		case "workers":
			if cfg.Workers, err = strconv.Atoi(value); err != nil || cfg.Workers < 0 {
				return cfg, fmt.Errorf("plrun driver: DSN %q: workers=%q is not a count", dsn, value)
			}
		default:
			cfg.Settings[name] = value
		}
	}
	return cfg, nil
}

// sharedEngine is one open engine and how many holders it has.
type sharedEngine struct {
	engine *engine.Engine
	cfg    engine.Config
	refs   int
}

// engines holds the engines open in this process, by directory.
var engines struct {
	sync.Mutex
	byDir map[string]*sharedEngine
}

// acquire returns the engine for cfg.Dir, opening it if no one holds it.
func acquire(cfg engine.Config) (*sharedEngine, error) {
	engines.Lock()
	defer engines.Unlock()
	if se, ok := engines.byDir[cfg.Dir]; ok {
		if !sameConfig(se.cfg, cfg) {
			return nil, fmt.Errorf("plrun driver: %s is already open with other settings (%v procs=%q workers=%d)",
				cfg.Dir, se.cfg.Settings, se.cfg.ProcsDir, se.cfg.Workers)
		}
		se.refs++
		return se, nil
	}
	cfg.Runtimes = builtin.Runtimes()
	e, err := engine.Open(cfg)
	if err != nil {
		return nil, err
	}
	if engines.byDir == nil {
		engines.byDir = map[string]*sharedEngine{}
	}
	se := &sharedEngine{engine: e, cfg: cfg, refs: 1}
	engines.byDir[cfg.Dir] = se
	return se, nil
}

// release drops one hold; the last one closes the engine.
func (se *sharedEngine) release() error {
	engines.Lock()
	defer engines.Unlock()
	se.refs--
	if se.refs > 0 {
		return nil
	}
	delete(engines.byDir, se.cfg.Dir)
	return se.engine.Close()
}

func sameConfig(a, b engine.Config) bool {
	return a.ProcsDir == b.ProcsDir && a.Workers == b.Workers && maps.Equal(a.Settings, b.Settings)
}
