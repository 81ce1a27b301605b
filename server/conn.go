package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/plrun/plrun/sql/querylog"

	plsql "github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

// conn is the handler of one client connection: it owns the connection's
// session and prepared statements. Only the connection's goroutine calls
// its methods, except those documented as called by Server.
type conn struct {
	srv     *Server
	nc      net.Conn
	session *plsql.Session
	wire    *wire         // nil until the handshake is done
	sock    *countingConn // the socket under wire
	salt    []byte        // the handshake's scramble (COM_CHANGE_USER uses it)
	secure  bool          // the connection runs over TLS (tls.go)

	// consumed is how many socket bytes the commands read so far took
	// (the connection's goroutine only); drainMark is how many had arrived
	// when the server began to drain, or noDrainMark (see drain.go).
	consumed  int64
	drainMark atomic.Int64

	// ctx is cancelled when the server stops waiting for in-flight
	// statements during shutdown.
	ctx    context.Context
	cancel context.CancelFunc

	stmts      map[uint32]*preparedStmt
	nextStmtID uint32

	// watchStop ends the running command's disconnect watch (nil: none
	// or ended); LOAD DATA LOCAL ends it early to read the client's file.
	watchStop func()

	mu struct {
		sync.Mutex
		busy bool // between reading a command and writing its reply
	}
}

// testHookDispatch, set only by tests before a server starts, runs before
// every command: a panic there is how they check recoverConn.
var testHookDispatch func(packet []byte)

// errShutdown answers commands that arrive while the server drains.
var errShutdown = mysql.NewError(mysql.ER_SERVER_SHUTDOWN, "Server shutdown in progress")

// serve runs the command loop until the client quits or the socket fails;
// while the server drains, until nothing received before the drain is left
// (see drain.go). It reports whether the connection was aborted: it ended
// without COM_QUIT (the client went away, an error, KILL), as MySQL
// counts Aborted_clients; a drain is not.
func (c *conn) serve() (aborted bool) {
	c.consumed = c.sock.read.Load() // the handshake
	c.startIdleClock()
	for {
		c.armIdleTimeout()
		c.lingerIfDraining()
		packet, err := c.wire.readPacket()
		if err != nil {
			if errors.Is(err, errPacketTooLarge) {
				_ = c.wire.writeError(mysql.NewError(mysql.ER_NET_PACKET_TOO_LARGE, "Got a packet bigger than 'max_allowed_packet' bytes"))
				_ = c.wire.flush()
			}
			return true
		}
		c.consumed += wireSize(len(packet))
		if !c.receivedBeforeDrain() {
			_ = c.wire.writeError(errShutdown)
			_ = c.wire.flush()
			return false
		}
		c.begin()
		if isQuestion(packet) {
			c.srv.questions.Add(1)
		}
		c.watchStop = nil
		if runsStatement(packet) {
			c.watchStop = c.wire.watchDisconnect(c.clientGone)
		}
		c.armWriteTimeout()
		quit, err := c.dispatch(packet)
		c.stopWatch()
		c.armWriteTimeout() // the rest of the reply: the command may have SET it
		if err == nil {
			err = c.wire.flush()
		}
		c.wire.resetSequence()
		c.end()
		if quit || err != nil || c.killed() {
			_ = c.wire.flush()
			return !quit
		}
	}
}

// stopWatch ends the disconnect watch of the running command, once.
func (c *conn) stopWatch() {
	if c.watchStop != nil {
		c.watchStop()
		c.watchStop = nil
	}
}

// runsStatement reports whether a command runs a statement or CALL, which
// a client's disconnect cancels. Only those are watched: the watch reads
// the socket, which a command such as COM_CHANGE_USER (an auth switch)
// reads itself.
func runsStatement(packet []byte) bool {
	return len(packet) > 0 && (packet[0] == mysql.COM_QUERY || packet[0] == mysql.COM_STMT_EXECUTE)
}

// isQuestion reports whether a command counts in COM_STATISTICS'
// Questions: as in MySQL, what clients asked, not pings or prepares.
func isQuestion(packet []byte) bool {
	return runsStatement(packet) || len(packet) > 0 && (packet[0] == mysql.COM_INIT_DB || packet[0] == mysql.COM_FIELD_LIST)
}

// clientGone is called (on the watch's goroutine) when the client closed
// its socket while a command ran: the command is cancelled as KILL QUERY
// would, so a disconnected client's statement or CALL does not run on.
func (c *conn) clientGone() {
	_ = c.srv.cfg.Engine.Kill(c.session.ID(), true)
}

// killed reports whether KILL CONNECTION ended the session; MySQL then
// closes the connection.
func (c *conn) killed() bool { return c.session.Killed() }

// begin marks the connection busy: Shutdown then leaves its socket alone.
func (c *conn) begin() {
	c.mu.Lock()
	c.mu.busy = true
	c.mu.Unlock()
}

// end marks the connection idle.
func (c *conn) end() {
	c.mu.Lock()
	c.mu.busy = false
	c.mu.Unlock()
}

// dispatch runs one command and writes its whole reply. A non-nil error
// ends the connection.
func (c *conn) dispatch(packet []byte) (quit bool, err error) {
	if testHookDispatch != nil {
		testHookDispatch(packet)
	}
	if len(packet) == 0 {
		return false, c.wire.writeError(errMalformed)
	}
	cmd, data := packet[0], packet[1:]
	switch cmd {
	case mysql.COM_QUIT:
		c.session.LogCommand(querylog.CmdQuit, "")
		return true, nil
	case mysql.COM_PING:
		return false, c.reply(nil, nil)
	case mysql.COM_INIT_DB:
		c.session.LogCommand(querylog.CmdInitDB, string(data))
		return false, c.reply(nil, c.useDB(string(data)))
	case mysql.COM_QUERY:
		return false, c.query(queryText(data), false, nil)
	case mysql.COM_FIELD_LIST:
		table, wildcard, _ := bytes.Cut(data, []byte{0})
		c.session.LogCommand(querylog.CmdFieldList, string(table))
		fields, err := c.fieldList(string(table), string(wildcard))
		if err != nil {
			return false, c.wire.writeError(toMyError(err))
		}
		return false, c.wire.writeFields(fields)
	case mysql.COM_STMT_PREPARE:
		c.session.LogCommand(querylog.CmdPrepare, queryText(data))
		return false, c.prepare(queryText(data))
	case mysql.COM_STMT_EXECUTE:
		return false, c.execute(data)
	case mysql.COM_STMT_SEND_LONG_DATA: // no reply
		if len(data) >= 6 {
			if st, ok := c.stmts[binary.LittleEndian.Uint32(data)]; ok {
				p := binary.LittleEndian.Uint16(data[4:])
				if st.longData == nil {
					st.longData = map[uint16][]byte{}
				}
				st.longData[p] = append(st.longData[p], data[6:]...)
			}
		}
		return false, nil
	case mysql.COM_STMT_RESET:
		st, err := c.stmt(data, "mysql_stmt_reset")
		if err == nil {
			st.longData = nil
		}
		return false, c.reply(nil, err)
	case mysql.COM_STMT_CLOSE: // no reply
		c.session.LogCommand(querylog.CmdClose, "")
		if len(data) >= 4 {
			delete(c.stmts, binary.LittleEndian.Uint32(data))
		}
		return false, nil
	case mysql.COM_SET_OPTION:
		return false, c.setOption(data)
	case mysql.COM_PROCESS_KILL:
		if len(data) < 4 {
			return false, c.wire.writeError(errMalformed)
		}
		id := uint64(binary.LittleEndian.Uint32(data))
		if err := c.session.CheckKill(id); err != nil {
			return false, c.reply(nil, err) // another account's session needs SUPER, as KILL id
		}
		return false, c.reply(nil, c.session.KillThread(id, false))
	case mysql.COM_REFRESH:
		return false, c.reply(nil, c.refresh(data))
	case mysql.COM_STATISTICS:
		return false, c.wire.writePacket([]byte(c.srv.statistics()))
	case mysql.COM_CHANGE_USER:
		err := c.changeUser(data)
		user, _ := c.session.Client()
		c.session.LogCommand(querylog.CmdChange, user+"@"+querylog.HostName(c.nc.RemoteAddr().String())+" on "+c.session.CurrentDB())
		return false, err
	case mysql.COM_RESET_CONNECTION:
		c.session.LogCommand(querylog.CmdReset, "")
		c.session.Reset()
		clear(c.stmts)
		return false, c.reply(nil, nil)
	default:
		return false, c.reply(nil, mysql.NewError(mysql.ER_UNKNOWN_COM_ERROR, "Unknown command"))
	}
}

// queryText is a COM_QUERY's statement text. A trailing NUL (mysqlslap
// and some drivers send one, as C strings) ends the text, as MariaDB
// reads it.
func queryText(data []byte) string {
	return string(bytes.TrimRight(data, "\x00"))
}

// setOption is COM_SET_OPTION: multi-statements on (0) or off (1) for the
// rest of the connection, answered with an EOF as MySQL does.
func (c *conn) setOption(data []byte) error {
	if len(data) < 2 {
		return c.wire.writeError(errMalformed)
	}
	switch binary.LittleEndian.Uint16(data) {
	case 0: // MYSQL_OPTION_MULTI_STATEMENTS_ON
		c.wire.capability |= mysql.CLIENT_MULTI_STATEMENTS
	case 1: // MYSQL_OPTION_MULTI_STATEMENTS_OFF
		c.wire.capability &^= mysql.CLIENT_MULTI_STATEMENTS
	default:
		return c.wire.writeError(mysql.NewError(mysql.ER_UNKNOWN_COM_ERROR, "Unknown command"))
	}
	c.syncStatus()
	return c.wire.writeEOF(0)
}

// syncStatus sets the status flags every OK and EOF carries from the
// session: SERVER_STATUS_AUTOCOMMIT and SERVER_STATUS_IN_TRANS.
func (c *conn) syncStatus() {
	set := func(flag uint16, on bool) {
		if on {
			c.wire.setStatus(flag)
		} else {
			c.wire.unsetStatus(flag)
		}
	}
	set(mysql.SERVER_STATUS_AUTOCOMMIT, c.session.Autocommit())
	set(mysql.SERVER_STATUS_IN_TRANS, c.session.InTransaction())
}

// reply writes an OK (r may be nil) or an error.
func (c *conn) reply(r *mysql.Result, err error) error {
	c.syncStatus()
	if err != nil {
		return c.wire.writeError(toMyError(err))
	}
	return c.wire.writeOK(r)
}

// query runs a COM_QUERY (binaryRows false) or a prepared statement's
// execution, and writes every result: all but the last with
// SERVER_MORE_RESULTS_EXISTS set, as multi-statements and CALL require.
func (c *conn) query(q string, binaryRows bool, args []any) error {
	multiResults := c.wire.hasCapability(mysql.CLIENT_MULTI_RESULTS)
	// A client that reads one result only cannot take a CALL's sets: the
	// procedure's emit fails with 1312, as MySQL refuses its SELECT.
	c.session.RefuseCallSets(!multiResults)
	results, err := c.run(q, args)
	c.syncStatus()
	results = flattenSets(results, binaryRows && c.wire.hasCapability(mysql.CLIENT_PS_MULTI_RESULTS))
	if err != nil {
		// A failed CALL's sets go before its error, as MySQL sends them.
		results = append(results, c.session.FailedCallSets()...)
	}
	// PROCESSLIST says "Sending data" while the rows go out: a client
	// that does not read them holds the connection here.
	c.session.SendingResult()
	defer c.session.ResultSent()
	for i, r := range results {
		last := i == len(results)-1 && err == nil
		if !last && !multiResults {
			continue // the client cannot take more than one result
		}
		if !last {
			c.wire.setStatus(mysql.SERVER_MORE_RESULTS_EXISTS)
		}
		if r.OutParams {
			c.wire.setStatus(mysql.SERVER_PS_OUT_PARAMS)
		}
		werr := c.wire.writeResult(toMySQLResult(r, binaryRows), r.Info)
		c.wire.unsetStatus(mysql.SERVER_MORE_RESULTS_EXISTS | mysql.SERVER_PS_OUT_PARAMS)
		if werr != nil {
			return werr
		}
	}
	if err != nil {
		return c.wire.writeError(toMyError(err))
	}
	return nil
}

// flattenSets puts each CALL's result sets before its own OK, as MySQL
// sends them. The OUT-parameter set of a prepared CALL goes only to a
// client that takes one (binary protocol with CLIENT_PS_MULTI_RESULTS), as
// MariaDB sends it only then; the CALL's OK remains.
func flattenSets(results []*plsql.Result, outParams bool) []*plsql.Result {
	var out []*plsql.Result
	for _, r := range results {
		for _, set := range r.Sets {
			if set.OutParams && !outParams {
				continue
			}
			out = append(out, set)
		}
		out = append(out, r)
	}
	return out
}

// run executes q: several statements through ExecMulti when the client
// allowed multi-statements and q may hold more than one, else one.
func (c *conn) run(q string, args []any) ([]*plsql.Result, error) {
	if args == nil && c.wire.hasCapability(mysql.CLIENT_MULTI_STATEMENTS) && mayHoldSeveral(q) {
		return c.session.ExecMulti(c.ctx, q)
	}
	r, err := c.session.Exec(c.ctx, q, args)
	if err != nil {
		return nil, err
	}
	return []*plsql.Result{r}, nil
}

// mayHoldSeveral reports whether q has a ';' before its trailing
// whitespace and semicolons; the engine's splitter decides for real.
func mayHoldSeveral(q string) bool {
	return strings.Contains(strings.TrimRight(q, " \t\r\n;"), ";")
}

// isCall reports whether q is a CALL statement.
func isCall(q string) bool {
	q = strings.TrimLeft(q, " \t\r\n(")
	return len(q) > 5 && strings.EqualFold(q[:4], "call") && strings.ContainsRune(" \t\r\n`", rune(q[4]))
}

// prepare is COM_STMT_PREPARE: the statement's parameter count and the
// definitions of its result columns, which libmysqlclient (sysbench, PHP)
// needs to read the result sets of its executions.
func (c *conn) prepare(q string) error {
	n, err := c.session.CountParams(q) // parsed under the session's sql_mode (ANSI_QUOTES)
	if err != nil {
		return c.wire.writeError(toMyError(err))
	}
	cols, err := c.session.Describe(q)
	if err != nil {
		return c.wire.writeError(toMyError(err))
	}
	c.nextStmtID++
	st := &preparedStmt{id: c.nextStmtID, query: q, params: n}
	c.stmts[st.id] = st
	reply := &prepareReply{id: st.id, params: n}
	for _, col := range cols {
		reply.columns = append(reply.columns, field(col))
	}
	return c.wire.writePrepare(reply)
}

func (c *conn) execute(data []byte) error {
	st, err := c.stmt(data, "mysql_stmt_execute")
	if err != nil {
		return c.wire.writeError(toMyError(err))
	}
	args, err := st.executeArgs(data[4:])
	st.longData = nil
	if err != nil {
		return c.wire.writeError(toMyError(err))
	}
	return c.query(st.query, true, args)
}

func (c *conn) stmt(data []byte, op string) (*preparedStmt, error) {
	if len(data) < 4 {
		return nil, errMalformed
	}
	id := binary.LittleEndian.Uint32(data)
	st, ok := c.stmts[id]
	if !ok {
		return nil, mysql.NewDefaultError(mysql.ER_UNKNOWN_STMT_HANDLER, 10, strconv.FormatUint(uint64(id), 10), op)
	}
	return st, nil
}

// useDB is COM_INIT_DB.
func (c *conn) useDB(name string) error {
	if err := c.session.UseDB(name); err != nil {
		return toMyError(err)
	}
	return nil
}

// fieldList is COM_FIELD_LIST: the column definitions of a table, those
// whose names match the LIKE pattern wildcard if it is not empty.
func (c *conn) fieldList(table, wildcard string) ([]*mysql.Field, error) {
	// The command is in the general log as Field List, not as this query.
	r, err := c.session.ExecUnlogged(c.ctx, "SELECT * FROM `"+strings.ReplaceAll(table, "`", "``")+"` LIMIT 0")
	if err != nil {
		return nil, toMyError(err)
	}
	var fields []*mysql.Field
	for _, col := range r.Columns {
		if wildcard == "" || likeMatch(wildcard, col.Name) {
			fields = append(fields, field(col))
		}
	}
	return fields, nil
}

// toMyError maps an error to the MySQL error sent to the client: engine
// errors keep their code and SQLSTATE.
func toMyError(err error) *mysql.MyError {
	var my *mysql.MyError
	if errors.As(err, &my) {
		return my
	}
	if e, ok := sqlerr.As(err); ok {
		m := mysql.NewError(e.Code, e.Message)
		if e.State != "" {
			m.State = e.State
		}
		return m
	}
	if errors.Is(err, context.Canceled) {
		return errShutdown
	}
	return mysql.NewError(mysql.ER_UNKNOWN_ERROR, err.Error())
}

// likeMatch matches s against a LIKE pattern (% and _, \ escapes),
// case-insensitively as column names compare.
func likeMatch(pattern, s string) bool {
	p, t := []rune(strings.ToLower(pattern)), []rune(strings.ToLower(s))
	var match func(i, j int) bool
	match = func(i, j int) bool {
		for i < len(p) {
			switch p[i] {
			case '%':
				for k := j; k <= len(t); k++ {
					if match(i+1, k) {
						return true
					}
				}
				return false
			case '_':
				if j >= len(t) {
					return false
				}
			case '\\':
				if i+1 < len(p) {
					i++
				}
				fallthrough
			default:
				if j >= len(t) || t[j] != p[i] {
					return false
				}
			}
			i, j = i+1, j+1
		}
		return j == len(t)
	}
	return match(0, 0)
}
