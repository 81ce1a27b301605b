// Package server speaks the MySQL client/server protocol in front of a
// plrun engine, so that unmodified clients (the mysql/mariadb command-line
// client and mysqladmin, pymysql and SQLAlchemy, sysbench, PHP mysqli,
// Node's mysql2, go-sql-driver/mysql) can use it.
//
// Every byte a client sends is read by plrun's own code: packet framing
// (packets.go, bounded by max_allowed_packet), the connection phase
// (handshake.go, login.go: handshake, mysql_native_password, auth
// switch, COM_CHANGE_USER; tls.go: the SSLRequest and the TLS upgrade,
// certs.go its generated certificates; sha2auth.go: caching_sha2_password
// with its fast-auth cache and full authentication over TLS or RSA) and
// command dispatch (conn.go, stmt.go). Secrets are checked behind the
// Secrets interface (auth.go), which the account catalog implements. Every length is checked against
// what is left of the packet before it is used, so no input can panic
// (fuzz_test.go). go-mysql-org/go-mysql supplies protocol constants,
// column-definition encoding and password scrambles only; its server
// package sliced client lengths unchecked (issue 10's two crashes).
//
// Shape (after go-mysql's cmd/go-mysqlserver): the embedder owns the
// listener and the accept loop (Serve is a ready-made one, used by Main);
// every accepted connection gets one handler value, *conn, holding that
// connection's sql.Session, used only by the connection's own goroutine.
//
//	accept ─► ServeConn ─► connect: handshake (connection id = session id,
//	                │        status flags), [SSLRequest, TLS], auth, default database
//	                └─► loop: read command ─► begin() ─► dispatch ─► reply ─► end()
//	                         (a statement running past watchDelay is watched:
//	                          a client that disconnects cancels it)
//
// A reply is written only when Session.Exec returns; the engine returns
// only once what the statement committed or read is durable, and it holds
// an engine worker only while executing, so a connection goroutine
// waiting for the log costs no worker. Replies are buffered and flushed
// before the next read: a result set costs one write.
//
// Status flags. The handshake and every OK and EOF carry
// SERVER_STATUS_AUTOCOMMIT and SERVER_STATUS_IN_TRANS as the session has
// them, as MySQL does: pymysql decides at connect whether to send
// SET autocommit=0 from the handshake's flag. CompatOceanBase
// (--compat oceanbase) sends none in the handshake, as OceanBase does,
// for seed 000's verbatim ob_elr.py, which relies on pymysql then leaving
// its sessions in autocommit (it never calls commit()).
//
// Logs. Config.Logger is the error log (errorlog.go builds it from
// --log-error and --log-format): the start and stop lines, panics,
// failed logins (logLoginFailed: the one call login.go makes), 1040
// refusals (written off the accept lock) and KILL through
// Session.KillThread. The general log's protocol commands (Connect,
// Init DB, Prepare, Quit ...) are written here through
// Session.LogCommand; statements are written by the engine's sessions.
//
// Panics. A panic on a connection's goroutine ends that connection only
// (ServeConn's recoverConn logs it with its stack and counts it,
// Server.Panics); the engine has already released the statement's
// worker and rolled back its transactions (sql.PanicError), and the
// session's Close rolls back what is left, so no row lock stays held.
//
// Concurrency and shutdown. Server.mu guards the set of connections and
// the draining flag; conn.mu guards one connection's busy flag. Lock
// order: Server.mu, then conn.mu. Shutdown sets draining, wakes every
// idle connection (read deadline in the past) so it exits, and lets busy
// ones finish their statement and write its reply; a command that
// arrives while draining gets ER_SERVER_SHUTDOWN (1053). If the context
// ends first, in-flight statements are cancelled through their context
// and their sockets closed. KILL of a connection wakes it the same way
// (sql.Session.OnKill), so an idle killed connection closes at once.
// Every connection goroutine closes its own session; Main closes the
// engine (which syncs the log) only after all connection goroutines have
// ended.
//
// Metrics. --metrics-listen starts one HTTP server (metricsflags.go) on a
// ServeMux of its own (package metrics: /metrics, and /debug/pprof/
// under --pprof); Main owns it, keeps it up through the drain and closes
// it, waiting for its goroutine, before it closes the engine.
//
// Options. Main's flags may also come from option files (options.go over
// package optfile: the data folder's plrun.cnf, --defaults-file,
// --defaults-extra-file): a name is matched against the FlagSet, so a
// flag registered in run before loadOptions needs no code to be read from
// a file; any other name is a global setting. OptionProgram.Apply is the
// same reading for cmd/plrun's REPL.
package server
