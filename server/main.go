package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql/querylog"
	"github.com/plrun/plrun/sql/sysvar"
)

// Main is `plrun serve`: it opens the engine in --data, serves the MySQL
// protocol on --listen until SIGTERM or SIGINT, then shuts down
// gracefully (see Shutdown) and closes the engine, which syncs the log.
// args are the arguments after "serve" (a leading "serve" is skipped).
func Main(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	return run(ctx, args, os.Stderr, nil)
}

// settingsFlag collects repeated --set name=value.
type settingsFlag map[string]string

func (s settingsFlag) String() string { return fmt.Sprint(map[string]string(s)) }
func (s settingsFlag) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want name=value, got %q", v)
	}
	s[strings.TrimSpace(name)] = strings.TrimSpace(value)
	return nil
}

// run is Main with the stop signal as ctx; ready, if set, gets the bound
// address once the server accepts connections.
func run(ctx context.Context, args []string, stderr io.Writer, ready func(addr net.Addr)) error {
	if len(args) > 0 && args[0] == "serve" {
		args = args[1:]
	}
	fs := flag.NewFlagSet("plrun serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:3306", "address to listen on")
	dataDir := fs.String("data", "", "data directory (created if missing)")
	user := fs.String("user", "root", "the first account, created as 'name'@'%' with ALL PRIVILEGES at the first start (with --password); later starts keep the accounts the data folder has")
	password := fs.String("password", "root", "password of --user (first start only: stored hashed)")
	usersFile := fs.String("users-file", "", "file of name:password lines: the first accounts, as --user (replaces --user/--password unless they are given explicitly)")
	maxConns := fs.Int("max-connections", DefaultMaxConnections, "maximum concurrent connections (1040 past it)")
	procsDir := fs.String("procs", "", "folder of *.lua / *.js procedures loaded at start")
	workers := fs.Int("workers", 0, "engine worker pool size (0 = engine default)")
	authPlugin := fs.String("auth-plugin", "mysql_native_password", "mysql_native_password or caching_sha2_password: the seeded accounts' plugin")
	compat := fs.String("compat", "", "compatibility mode: oceanbase announces no status in the handshake, as OceanBase does (seed 000's ob_elr.py relies on it; see README)")
	shutdownTimeout := fs.Duration("shutdown-timeout", 10*time.Second, "how long in-flight statements may run after SIGTERM before they are cancelled")
	tlsOpts := registerTLSFlags(fs)
	settings := settingsFlag{}
	fs.Var(settings, "set", "global setting name=value, e.g. enable_early_lock_release=ON (repeatable)")
	metricsOpts := registerMetricsFlags(fs)
	logFlags := registerErrorLogFlags(fs)
	RegisterOptionFileFlags(fs)
	optionSettings, printed, err := loadOptions(fs, args, stderr)
	if err != nil || printed {
		return err
	}
	if err := metricsOpts.check(); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *dataDir == "" {
		return errors.New("--data DIR is required")
	}

	users := Users{}
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	if *usersFile != "" {
		var err error
		if users, err = ReadUsersFile(*usersFile); err != nil {
			return err
		}
	}
	if *usersFile == "" || explicit["user"] || explicit["password"] {
		users[*user] = *password
	}

	log, logFile, err := logFlags.open(stderr)
	if err != nil {
		return err
	}
	if logFile != nil {
		defer logFile.Close()
	}
	// Clients must not make the server read arbitrary files (LOAD
	// PROCEDURE 'path'): only the --procs folder, or nothing, unless an
	// option file or --set says otherwise.
	filePriv := "NULL"
	if *procsDir != "" {
		filePriv = *procsDir
	}
	optionSettings = append([]engine.OptionSetting{{Name: "secure_file_priv", Value: filePriv, Source: sysvar.SourceCompiled}}, optionSettings...)
	tlsConfig, rsaKey, err := tlsOpts.setup(*dataDir, settings)
	if err != nil {
		return err
	}
	ecfg := engine.Config{Runtimes: builtin.Runtimes(), Dir: *dataDir, Settings: settings, OptionSettings: optionSettings, ProcsDir: *procsDir, Workers: *workers, Logger: log}
	if logFile != nil {
		ecfg.ReopenErrorLog = logFile.Reopen
	}
	engine, err := engine.Open(ecfg)
	if err != nil {
		log.Error("plrun could not start", "data", *dataDir, "err", err)
		return err
	}
	engine.LimitGoMemory()
	started := time.Now()
	srv, err := New(Config{Engine: engine, Users: users, MaxConnections: *maxConns, AuthPlugin: *authPlugin, Compat: *compat, TLS: tlsConfig, RSAKey: rsaKey, Logger: log})
	if err != nil {
		engine.Close()
		return err
	}
	metricsLn, err := metricsOpts.start(engine, stderr)
	if err != nil {
		engine.Close()
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		metricsLn.Close()
		engine.Close()
		return err
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok {
		qs := querylog.Server{Program: os.Args[0], Version: ServerVersion, Port: tcp.Port}
		if exe, err := os.Executable(); err == nil {
			qs.Program = exe
		}
		engine.QueryLogs().SetServer(qs)
	}
	logStart(log, engine, ln.Addr(), *dataDir)
	if ready != nil {
		ready(ln.Addr())
	}

	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		log.Info("shutting down", "cause", context.Cause(ctx).Error())
	case err = <-serveErr:
		log.Error("accept failed; shutting down", "err", err)
	}

	sctx, cancel := context.WithTimeout(context.Background(), *shutdownTimeout)
	defer cancel()
	shutdownErr := srv.Shutdown(sctx)
	if shutdownErr != nil {
		log.Warn("shutdown cancelled statements still running", "err", shutdownErr, "shutdown_timeout", *shutdownTimeout)
	}
	// Metrics stay up through the drain, so it can be watched.
	if merr := metricsLn.Close(); merr != nil {
		log.Warn("closing the metrics listener failed", "err", merr)
	}
	settingsAtStop := changedSettings(engine)
	if cerr := engine.Close(); cerr != nil {
		log.Error("closing the engine failed", "err", cerr)
		return fmt.Errorf("closing the engine: %w", cerr)
	}
	log.Info("plrun stopped", append([]any{"uptime", time.Since(started).Round(time.Millisecond).String()}, settingsAtStop...)...)
	return err
}
