package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/sql/parse"

	plsql "github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/types"
)

func init() {
	sql.Register("plrun", &Driver{})
}

// Driver is the "plrun" database/sql driver.
type Driver struct{}

var (
	_ driver.Driver        = (*Driver)(nil)
	_ driver.DriverContext = (*Driver)(nil)
)

// Open opens one connection holding its own reference to the engine;
// sql.Open uses OpenConnector instead, so that the engine's lifetime
// follows the *sql.DB.
func (d *Driver) Open(dsn string) (driver.Conn, error) {
	cfg, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	se, err := acquire(cfg)
	if err != nil {
		return nil, err
	}
	c := newConn(se.engine)
	c.release = se.release
	return c, nil
}

// OpenConnector acquires the engine for dsn's directory; closing the
// *sql.DB (which closes the Connector) releases it.
func (d *Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	se, err := acquire(cfg)
	if err != nil {
		return nil, err
	}
	return &Connector{driver: d, shared: se}, nil
}

// Connector makes connections to one shared engine.
type Connector struct {
	driver    *Driver
	shared    *sharedEngine
	closeOnce sync.Once
	closeErr  error
}

var _ io.Closer = (*Connector)(nil)

// Connect opens a connection: a new session.
func (c *Connector) Connect(context.Context) (driver.Conn, error) {
	return newConn(c.shared.engine), nil
}

// Driver returns the plrun driver.
func (c *Connector) Driver() driver.Driver { return c.driver }

// Close releases the engine; database/sql calls it from DB.Close after
// closing every connection.
func (c *Connector) Close() error {
	c.closeOnce.Do(func() { c.closeErr = c.shared.release() })
	return c.closeErr
}

// Engine returns the engine the connector's connections use.
func (c *Connector) Engine() *engine.Engine { return c.shared.engine }

// conn is one database/sql connection: one session.
type conn struct {
	session *plsql.Session
	release func() error // set when the conn holds its own engine reference
	closed  bool
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
)

func newConn(e *engine.Engine) *conn {
	s := e.NewSession()
	s.SetLocalFiles(plsql.LocalFilesystem) // LOAD DATA LOCAL reads this process's files
	return &conn{session: s}
}

// Session returns the connection's session, for use through sql.Conn.Raw.
func (c *conn) Session() *plsql.Session { return c.session }

func (c *conn) exec(ctx context.Context, query string, args []driver.NamedValue) (*plsql.Result, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	vals := make([]any, len(args))
	for i, a := range args {
		if a.Name != "" {
			return nil, errors.New("plrun driver: named parameters are not supported; use ?")
		}
		vals[i] = a.Value
	}
	return c.session.Exec(ctx, query, vals)
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	r, err := c.exec(ctx, query, args)
	if err != nil {
		return nil, err
	}
	return execResult{r}, nil
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	r, err := c.exec(ctx, query, args)
	if err != nil {
		return nil, err
	}
	return newRows(r), nil
}

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext checks the placeholders; the engine caches the parsed
// statement by its text, so a statement is just its query.
func (c *conn) PrepareContext(_ context.Context, query string) (driver.Stmt, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	n, err := parse.CountParams(query)
	if err != nil {
		return nil, err
	}
	return &stmt{conn: c, query: query, params: n}, nil
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx sends what go-sql-driver/mysql sends: SET TRANSACTION ISOLATION
// LEVEL (the next transaction only) for a level other than the default,
// then START TRANSACTION [READ ONLY]. The engine refuses the levels it does
// not implement (SERIALIZABLE, READ UNCOMMITTED) with error 1235.
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if sql.IsolationLevel(opts.Isolation) != sql.LevelDefault {
		level, ok := isolationLevels[sql.IsolationLevel(opts.Isolation)]
		if !ok {
			return nil, fmt.Errorf("plrun driver: unsupported isolation level: %v", sql.IsolationLevel(opts.Isolation))
		}
		if _, err := c.exec(ctx, "SET TRANSACTION ISOLATION LEVEL "+level, nil); err != nil {
			return nil, err
		}
	}
	begin := "START TRANSACTION"
	if opts.ReadOnly {
		begin = "START TRANSACTION READ ONLY"
	}
	if _, err := c.exec(ctx, begin, nil); err != nil {
		return nil, err
	}
	return tx{c}, nil
}

// isolationLevels are the database/sql levels MySQL has.
var isolationLevels = map[sql.IsolationLevel]string{
	sql.LevelRepeatableRead:  "REPEATABLE READ",
	sql.LevelReadCommitted:   "READ COMMITTED",
	sql.LevelReadUncommitted: "READ UNCOMMITTED",
	sql.LevelSerializable:    "SERIALIZABLE",
}

func (c *conn) Ping(context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	return nil
}

func (c *conn) IsValid() bool { return !c.closed }

// CheckNamedValue passes through what Session.Exec binds (notably uint64,
// which database/sql's default converter rejects above MaxInt64).
func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	switch v := nv.Value.(type) {
	case nil, int64, uint64, float64, string, []byte, bool, time.Time:
		return nil
	case int:
		nv.Value = int64(v)
		return nil
	case uint:
		nv.Value = uint64(v)
		return nil
	case uint32:
		nv.Value = uint64(v)
		return nil
	}
	rv := reflect.ValueOf(nv.Value)
	if rv.Kind() >= reflect.Uint && rv.Kind() <= reflect.Uint64 {
		nv.Value = rv.Uint()
		return nil
	}
	v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
	if err != nil {
		return err
	}
	nv.Value = v
	return nil
}

// Close rolls back any open transaction and frees the session.
func (c *conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.session.Close()
	if c.release != nil {
		return c.release()
	}
	return nil
}

type tx struct{ c *conn }

func (t tx) Commit() error {
	_, err := t.c.exec(context.Background(), "COMMIT", nil)
	return err
}

func (t tx) Rollback() error {
	_, err := t.c.exec(context.Background(), "ROLLBACK", nil)
	return err
}

type stmt struct {
	conn   *conn
	query  string
	params int
}

var (
	_ driver.StmtExecContext  = (*stmt)(nil)
	_ driver.StmtQueryContext = (*stmt)(nil)
)

func (s *stmt) Close() error  { return nil }
func (s *stmt) NumInput() int { return s.params }

func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.conn.ExecContext(ctx, s.query, args)
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.conn.QueryContext(ctx, s.query, args)
}

func named(args []driver.Value) []driver.NamedValue {
	nv := make([]driver.NamedValue, len(args))
	for i, a := range args {
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return nv
}

type execResult struct{ r *plsql.Result }

func (e execResult) LastInsertId() (int64, error) { return int64(e.r.LastInsertID), nil }
func (e execResult) RowsAffected() (int64, error) { return int64(e.r.AffectedRows), nil }

// rows iterates a Result already complete in memory. A CALL's result
// sets (Result.Sets) are its result sets, in order, reached with
// NextResultSet (database/sql's Rows.NextResultSet); the CALL's OK is
// stepped over, as go-sql-driver/mysql steps over OKs.
type rows struct {
	sets   []*plsql.Result
	set    int // index in sets of result
	result *plsql.Result
	next   int
}

func newRows(r *plsql.Result) *rows {
	sets := append([]*plsql.Result(nil), r.Sets...)
	if r.IsResultSet() || len(sets) == 0 {
		sets = append(sets, r)
	}
	return &rows{sets: sets, result: sets[0]}
}

var (
	_ driver.RowsNextResultSet              = (*rows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)
	_ driver.RowsColumnTypeNullable         = (*rows)(nil)
	_ driver.RowsColumnTypeScanType         = (*rows)(nil)
)

func (r *rows) Columns() []string {
	names := make([]string, len(r.result.Columns))
	for i, c := range r.result.Columns {
		names[i] = c.Name
	}
	return names
}

func (r *rows) Close() error {
	r.set, r.result = len(r.sets)-1, r.sets[len(r.sets)-1]
	r.next = len(r.result.Rows)
	return nil
}

func (r *rows) HasNextResultSet() bool { return r.set+1 < len(r.sets) }

func (r *rows) NextResultSet() error {
	if !r.HasNextResultSet() {
		return io.EOF
	}
	r.set++
	r.result, r.next = r.sets[r.set], 0
	return nil
}

func (r *rows) Next(dest []driver.Value) error {
	if r.next >= len(r.result.Rows) {
		return io.EOF
	}
	row := r.result.Rows[r.next]
	r.next++
	for i, v := range row {
		dest[i] = driverValue(v)
	}
	return nil
}

// driverValue converts an engine value: integers to int64 (uint64 above
// MaxInt64), DECIMAL to its exact text, DATETIME to time.Time (UTC wall
// clock).
func driverValue(v types.Value) driver.Value {
	switch v.K {
	case types.KindNull:
		return nil
	case types.KindInt:
		return v.I
	case types.KindUint:
		if u := v.Uint(); u > math.MaxInt64 {
			return u
		}
		return v.I
	case types.KindFloat:
		return v.F
	case types.KindTime:
		return v.Time()
	}
	return v.String() // KindString, KindDecimal
}

func (r *rows) ColumnTypeDatabaseTypeName(i int) string {
	t := r.result.Columns[i].Type
	if t.Base == 0 {
		return ""
	}
	name, _, _ := strings.Cut(t.SQL(), "(")
	name, _, _ = strings.Cut(name, " ")
	if t.Unsigned {
		name = "UNSIGNED " + name
	}
	return strings.ToUpper(name)
}

func (r *rows) ColumnTypeNullable(i int) (bool, bool) {
	return !r.result.Columns[i].NotNull, true
}

func (r *rows) ColumnTypeScanType(i int) reflect.Type {
	t := r.result.Columns[i].Type
	nullable := !r.result.Columns[i].NotNull
	pick := func(plain, null any) reflect.Type {
		if nullable {
			return reflect.TypeOf(null)
		}
		return reflect.TypeOf(plain)
	}
	switch {
	case t.IsInteger() && t.Unsigned && t.Base == types.TBigInt:
		return pick(uint64(0), sql.Null[uint64]{})
	case t.IsInteger(), t.Base == types.TYear:
		return pick(int64(0), sql.NullInt64{})
	case t.Base == types.TFloat || t.Base == types.TDouble:
		return pick(float64(0), sql.NullFloat64{})
	case t.Base == types.TDatetime || t.Base == types.TTimestamp || t.Base == types.TDate:
		return pick(time.Time{}, sql.NullTime{})
	}
	return pick("", sql.NullString{})
}
