// Package server speaks the MySQL client/server protocol in front of a
// plrun engine, so that unmodified clients (the mysql/mariadb command-line
// client, pymysql, sysbench, go-sql-driver/mysql) can use it.
//
// It is built on github.com/go-mysql-org/go-mysql/server for the
// connection phase (handshake, mysql_native_password and
// caching_sha2_password) and packet framing. Command dispatch is plrun's
// own (conn.go): it must map every error to its MySQL code and SQLSTATE,
// including errors of COM_STMT_EXECUTE, which go-mysql's dispatcher
// wraps and so reports as 1105, and it must know when a connection is
// between commands for graceful shutdown.
//
// Shape (after go-mysql's cmd/go-mysqlserver): the embedder owns the
// listener and the accept loop (Serve is a ready-made one, used by Main);
// every accepted connection gets one handler value, *conn, holding that
// connection's sql.Session, used only by the connection's own goroutine.
//
//	accept ─► ServeConn ─► handshake (UseDB for the handshake's database)
//	                └─► loop: read command ─► begin() ─► dispatch ─► reply ─► end()
//
// A reply is written only when Session.Exec returns; the engine returns
// only once what the statement committed or read is durable, and it holds
// an engine worker only while executing, so a connection goroutine
// waiting for the log costs no worker.
//
// Status flags. Every OK and EOF carries SERVER_STATUS_AUTOCOMMIT and
// SERVER_STATUS_IN_TRANS as the session has them; the handshake carries
// none. That is deliberate: pymysql decides at connect whether to send
// SET AUTOCOMMIT=0 from the handshake's flag, and seed 000's ob_elr.py,
// run as written, relies on its server leaving sessions in autocommit
// (each of its UPDATEs is committed; it never calls commit()), as its
// OceanBase run shows. A pymysql client wanting a transaction calls
// begin() (or sends BEGIN), which works as everywhere.
//
// Concurrency and shutdown. Server.mu guards the set of connections and
// the draining flag; conn.mu guards one connection's busy flag. Lock
// order: Server.mu, then conn.mu. Shutdown sets draining, wakes every
// idle connection (read deadline in the past) so it exits, and lets busy
// ones finish their statement and write its reply; a command that
// arrives while draining gets ER_SERVER_SHUTDOWN (1053). If the context
// ends first, in-flight statements are cancelled through their context
// and their sockets closed. Every connection goroutine closes its own
// session; Main closes the engine (which syncs the log) only after all
// connection goroutines have ended.
package server
