package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-mysql-org/go-mysql/mysql"
	gms "github.com/go-mysql-org/go-mysql/server"

	plsql "github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sqlerr"
)

// conn is the handler of one client connection: it owns the connection's
// session and prepared statements. Only the connection's goroutine calls
// its methods, except those documented as called by Server.
type conn struct {
	srv     *Server
	session *plsql.Session
	wire    *gms.Conn     // nil until the handshake is done
	sock    *countingConn // the socket under wire

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

	mu struct {
		sync.Mutex
		busy bool // between reading a command and writing its reply
	}
}

var _ gms.Handler = (*conn)(nil)

// errShutdown answers commands that arrive while the server drains.
var errShutdown = mysql.NewError(mysql.ER_SERVER_SHUTDOWN, "Server shutdown in progress")

// serve runs the command loop until the client quits or the socket fails;
// while the server drains, until nothing received before the drain is left
// (see drain.go).
func (c *conn) serve() {
	c.consumed = c.sock.read.Load() // the handshake
	for {
		c.lingerIfDraining()
		packet, err := c.wire.ReadPacket()
		if err != nil {
			return
		}
		c.consumed += wireSize(len(packet))
		if !c.receivedBeforeDrain() {
			_ = c.wire.WriteValue(errShutdown)
			return
		}
		c.begin()
		quit, err := c.dispatch(packet)
		c.wire.ResetSequence()
		c.end()
		if quit || err != nil || c.killed() {
			return
		}
	}
}

// killed reports whether KILL CONNECTION ended the session; MySQL then
// closes the connection. Sessions that cannot tell are never killed here.
func (c *conn) killed() bool {
	k, ok := any(c.session).(interface{ Killed() bool })
	return ok && k.Killed()
}

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

// dispatch runs one command and writes its whole reply.
func (c *conn) dispatch(packet []byte) (quit bool, err error) {
	if len(packet) == 0 {
		return false, c.wire.WriteValue(errMalformed)
	}
	cmd, data := packet[0], packet[1:]
	switch cmd {
	case mysql.COM_QUIT:
		return true, nil
	case mysql.COM_PING:
		return false, c.wire.WriteValue(nil)
	case mysql.COM_INIT_DB:
		return false, c.reply(nil, c.UseDB(string(data)))
	case mysql.COM_QUERY:
		return false, c.query(string(data), false, nil)
	case mysql.COM_FIELD_LIST:
		table, wildcard, _ := bytes.Cut(data, []byte{0})
		fields, err := c.HandleFieldList(string(table), string(wildcard))
		if err != nil {
			return false, c.wire.WriteValue(toMyError(err))
		}
		return false, c.wire.WriteValue(fields)
	case mysql.COM_STMT_PREPARE:
		return false, c.prepare(string(data))
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
		if len(data) >= 4 {
			delete(c.stmts, binary.LittleEndian.Uint32(data))
		}
		return false, nil
	case mysql.COM_SET_OPTION:
		// Multi-statements are decided per query from the capability the
		// client announced; MySQL answers COM_SET_OPTION with an EOF,
		// which an empty field list is.
		return false, c.wire.WriteValue([]*mysql.Field{})
	case mysql.COM_PROCESS_KILL:
		if len(data) < 4 {
			return false, c.wire.WriteValue(errMalformed)
		}
		id := uint64(binary.LittleEndian.Uint32(data))
		return false, c.reply(nil, c.srv.cfg.Engine.Kill(id, false))
	case mysql.COM_RESET_CONNECTION:
		return false, c.reply(nil, c.resetSession())
	default:
		return false, c.reply(nil, c.HandleOtherCommand(cmd, data))
	}
}

// syncStatus sets the status flags every OK and EOF carries from the
// session: SERVER_STATUS_AUTOCOMMIT and SERVER_STATUS_IN_TRANS. The
// handshake itself carries none (see doc.go: the seed's pymysql script
// relies on that).
func (c *conn) syncStatus() {
	set := func(flag uint16, on bool) {
		if on {
			c.wire.SetStatus(flag)
		} else {
			c.wire.UnsetStatus(flag)
		}
	}
	set(mysql.SERVER_STATUS_AUTOCOMMIT, c.session.Autocommit())
	set(mysql.SERVER_STATUS_IN_TRANS, c.session.InTransaction())
}

// reply writes an OK (r may be nil) or an error.
func (c *conn) reply(r *mysql.Result, err error) error {
	c.syncStatus()
	if err != nil {
		return c.wire.WriteValue(toMyError(err))
	}
	return c.wire.WriteValue(r)
}

// query runs a COM_QUERY (binaryRows false) or a prepared statement's
// execution, and writes every result: all but the last with
// SERVER_MORE_RESULTS_EXISTS set, as multi-statements and CALL require.
func (c *conn) query(q string, binaryRows bool, args []any) error {
	results, err := c.run(q, args)
	c.syncStatus()
	multiResults := c.wire.HasCapability(mysql.CLIENT_MULTI_RESULTS)
	if multiResults && isCall(q) && err == nil && len(results) > 0 && results[len(results)-1].IsResultSet() {
		// A CALL's result sets are followed by the OK of the CALL itself.
		results = append(results, &plsql.Result{})
	}
	for i, r := range results {
		last := i == len(results)-1 && err == nil
		if !last && !multiResults {
			continue // the client cannot take more than one result
		}
		if !last {
			c.wire.SetStatus(mysql.SERVER_MORE_RESULTS_EXISTS)
		}
		werr := c.wire.WriteValue(toMySQLResult(r, binaryRows))
		c.wire.UnsetStatus(mysql.SERVER_MORE_RESULTS_EXISTS)
		if werr != nil {
			return werr
		}
	}
	if err != nil {
		return c.wire.WriteValue(toMyError(err))
	}
	return nil
}

// run executes q: several statements through ExecMulti when the client
// allowed multi-statements and q may hold more than one, else one.
func (c *conn) run(q string, args []any) ([]*plsql.Result, error) {
	if args == nil && c.wire.HasCapability(mysql.CLIENT_MULTI_STATEMENTS) && mayHoldSeveral(q) {
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

func (c *conn) prepare(q string) error {
	n, err := plsql.CountParams(q)
	if err != nil {
		return c.wire.WriteValue(toMyError(err))
	}
	c.nextStmtID++
	st := &preparedStmt{id: c.nextStmtID, query: q, params: n}
	c.stmts[st.id] = st
	// Columns are reported at execution: the engine has no describe step,
	// and clients take the column definitions sent with the result set.
	return c.wire.WriteValue(&gms.Stmt{ID: st.id, Query: q, Params: n})
}

func (c *conn) execute(data []byte) error {
	st, err := c.stmt(data, "mysql_stmt_execute")
	if err != nil {
		return c.wire.WriteValue(toMyError(err))
	}
	args, err := st.executeArgs(data[4:])
	st.longData = nil
	if err != nil {
		return c.wire.WriteValue(toMyError(err))
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

// resetSession is COM_RESET_CONNECTION: a fresh session (no transaction,
// default variables, no prepared statements) on the same database.
func (c *conn) resetSession() error {
	db := c.session.CurrentDB()
	c.session.Close()
	c.session = c.srv.cfg.Engine.NewSession()
	c.session.SetClient(c.wire.GetUser(), c.wire.RemoteAddr().String())
	clear(c.stmts)
	if db != "" {
		return c.session.UseDB(db)
	}
	return nil
}

// UseDB is COM_INIT_DB and the handshake's database.
func (c *conn) UseDB(name string) error {
	if err := c.session.UseDB(name); err != nil {
		return toMyError(err)
	}
	return nil
}

// HandleQuery runs one COM_QUERY text and returns its last result; the
// command loop uses query instead, which also writes earlier results.
func (c *conn) HandleQuery(q string) (*mysql.Result, error) {
	r, err := c.session.Exec(c.ctx, q, nil)
	if err != nil {
		return nil, toMyError(err)
	}
	return toMySQLResult(r, false), nil
}

// HandleFieldList is COM_FIELD_LIST: the column definitions of a table,
// those whose names match the LIKE pattern wildcard if it is not empty.
func (c *conn) HandleFieldList(table, wildcard string) ([]*mysql.Field, error) {
	r, err := c.session.Exec(c.ctx, "SELECT * FROM `"+strings.ReplaceAll(table, "`", "``")+"` LIMIT 0", nil)
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

// HandleStmtPrepare returns the parameter count of q (columns are sent
// at execution).
func (c *conn) HandleStmtPrepare(q string) (int, int, any, error) {
	n, err := plsql.CountParams(q)
	if err != nil {
		return 0, 0, nil, toMyError(err)
	}
	return n, 0, q, nil
}

// HandleStmtExecute runs a prepared statement's text with its arguments.
func (c *conn) HandleStmtExecute(_ any, q string, args []any) (*mysql.Result, error) {
	r, err := c.session.Exec(c.ctx, q, args)
	if err != nil {
		return nil, toMyError(err)
	}
	return toMySQLResult(r, true), nil
}

// HandleStmtClose has nothing to free: statements are re-parsed from the
// engine's statement cache.
func (c *conn) HandleStmtClose(any) error { return nil }

// HandleOtherCommand answers commands plrun does not implement.
func (c *conn) HandleOtherCommand(cmd byte, _ []byte) error {
	return mysql.NewError(mysql.ER_UNKNOWN_COM_ERROR, fmt.Sprintf("Unknown command %d", cmd))
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
