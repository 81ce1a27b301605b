package examples_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/runtime/js"
	"github.com/plrun/plrun/runtime/lua"
	"github.com/plrun/plrun/sqlerr"
)

// tables is an in-memory stand-in for the three example tables that
// understands exactly the statements the examples run, with transactions
// (a snapshot taken at START TRANSACTION, restored by ROLLBACK).
type tables struct {
	test1     []int64
	balances  map[int64]*apd.Decimal
	stock     map[int64]int64
	snapshot  *tables
	commits   int
	rollbacks int
}

func newTables() *tables {
	return &tables{
		balances: map[int64]*apd.Decimal{1: dec("100.00"), 2: dec("50.00")},
		stock:    map[int64]int64{1: 10},
	}
}

func dec(s string) *apd.Decimal {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		panic(err)
	}
	return d
}

func (tb *tables) clone() *tables {
	c := &tables{test1: append([]int64(nil), tb.test1...), balances: map[int64]*apd.Decimal{}, stock: map[int64]int64{}}
	for k, v := range tb.balances {
		c.balances[k] = new(apd.Decimal).Set(v)
	}
	for k, v := range tb.stock {
		c.stock[k] = v
	}
	return c
}

func asInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	panic(fmt.Sprintf("not an integer: %#v", v))
}

func asDec(v any) *apd.Decimal {
	switch x := v.(type) {
	case string:
		return dec(x)
	case int64:
		return apd.New(x, 0)
	case float64:
		d, _ := new(apd.Decimal).SetFloat64(x)
		return d
	}
	panic(fmt.Sprintf("not a decimal: %#v", v))
}

func money(d *apd.Decimal) string {
	var q apd.Decimal
	apd.BaseContext.WithPrecision(30).Quantize(&q, d, -2)
	return q.Text('f')
}

func (tb *tables) Exec(ctx context.Context, sql string, args []any) (*procs.Result, error) {
	ctxD := apd.BaseContext.WithPrecision(30)
	switch sql {
	case "INSERT INTO test1 (a) VALUES (?)":
		tb.test1 = append(tb.test1, asInt(args[0]))
		return &procs.Result{AffectedRows: 1}, nil
	case "SELECT balance FROM accounts WHERE id = ? FOR UPDATE":
		res := &procs.Result{Columns: []string{"balance"}}
		if b, ok := tb.balances[asInt(args[0])]; ok {
			res.Rows = [][]any{{money(b)}}
		}
		return res, nil
	case "SELECT balance >= ? AS enough FROM accounts WHERE id = ?":
		res := &procs.Result{Columns: []string{"enough"}}
		if b, ok := tb.balances[asInt(args[1])]; ok {
			enough := int64(0)
			if b.Cmp(asDec(args[0])) >= 0 {
				enough = 1
			}
			res.Rows = [][]any{{enough}}
		}
		return res, nil
	case "UPDATE accounts SET balance = balance - ? WHERE id = ?", "UPDATE accounts SET balance = balance + ? WHERE id = ?":
		b, ok := tb.balances[asInt(args[1])]
		if !ok {
			return &procs.Result{}, nil
		}
		if strings.Contains(sql, "- ?") {
			ctxD.Sub(b, b, asDec(args[0]))
		} else {
			ctxD.Add(b, b, asDec(args[0]))
		}
		return &procs.Result{AffectedRows: 1}, nil
	case "UPDATE inventory SET stock = stock - ? WHERE id = ? AND stock >= ?":
		id, qty := asInt(args[1]), asInt(args[0])
		if s, ok := tb.stock[id]; ok && s >= asInt(args[2]) {
			tb.stock[id] = s - qty
			return &procs.Result{AffectedRows: 1}, nil
		}
		return &procs.Result{}, nil
	case "SELECT stock FROM inventory WHERE id = ?":
		res := &procs.Result{Columns: []string{"stock"}}
		if s, ok := tb.stock[asInt(args[0])]; ok {
			res.Rows = [][]any{{s}}
		}
		return res, nil
	}
	return nil, sqlerr.New(sqlerr.ErParse, "fake tables do not understand %q", sql)
}

func (tb *tables) StartTransaction(ctx context.Context) error {
	tb.snapshot = tb.clone()
	return nil
}

func (tb *tables) Commit(ctx context.Context, wait procs.CommitWait) error {
	tb.snapshot = nil
	tb.commits++
	return nil
}

func (tb *tables) Rollback(ctx context.Context) error {
	if tb.snapshot != nil {
		s := tb.snapshot
		tb.test1, tb.balances, tb.stock, tb.snapshot = s.test1, s.balances, s.stock, nil
	}
	tb.rollbacks++
	return nil
}

func (tb *tables) Savepoint(ctx context.Context, name string) error           { return nil }
func (tb *tables) RollbackToSavepoint(ctx context.Context, name string) error { return nil }
func (tb *tables) ReleaseSavepoint(ctx context.Context, name string) error    { return nil }

func loadCatalog(t *testing.T) *procs.Catalog {
	t.Helper()
	defs, err := procs.LoadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 6 {
		t.Fatalf("LoadDir found %d procedures, want 6", len(defs))
	}
	c := procs.NewCatalog(lua.New(lua.Options{}), js.New(js.Options{}))
	for _, def := range defs {
		if err := c.Create(def, true); err != nil {
			t.Fatalf("compile %s: %v", def.Name, err)
		}
	}
	return c
}

func call(t *testing.T, c *procs.Catalog, h *tables, name string, args ...any) ([]any, error) {
	t.Helper()
	return c.Call(context.Background(), h, "test", name, args)
}

func wantSignal(t *testing.T, err error, msg string) {
	t.Helper()
	e, ok := sqlerr.As(err)
	if !ok || e.Code != sqlerr.ErSignalException || e.State != "45000" || !strings.Contains(e.Message, msg) {
		t.Fatalf("err = %v, want 1644 (45000) containing %q", err, msg)
	}
}

func TestExamples(t *testing.T) {
	c := loadCatalog(t)
	for _, lang := range []string{"lua", "js"} {
		t.Run("seed003/"+lang, func(t *testing.T) {
			h := newTables()
			if _, err := call(t, c, h, "seed003_insert_commit_"+lang, 1000); err != nil {
				t.Fatal(err)
			}
			if len(h.test1) != 1000 || h.test1[999] != 1000 || h.commits != 1000 {
				t.Fatalf("%d rows, %d commits", len(h.test1), h.commits)
			}
		})
		t.Run("transfer/"+lang, func(t *testing.T) {
			h := newTables()
			name := "transfer_" + lang
			outs, err := call(t, c, h, name, 1, 2, "25.5", nil, nil)
			if err != nil || !reflect.DeepEqual(outs, []any{nil, nil, nil, "74.50", "75.50"}) {
				t.Fatalf("transfer = %v, %v", outs, err)
			}
			if h.commits != 1 || money(h.balances[1]) != "74.50" || money(h.balances[2]) != "75.50" {
				t.Fatalf("after transfer: %v %v, %d commits", h.balances[1], h.balances[2], h.commits)
			}
			_, err = call(t, c, h, name, 1, 2, 1000, nil, nil)
			wantSignal(t, err, "insufficient funds in account 1: balance 74.50 < 1000.00")
			// The message is exactly the one raised; where is apart, a line
			// of the file.
			if e, _ := sqlerr.As(err); !strings.HasPrefix(e.Message, "insufficient") || !strings.HasPrefix(e.Where, name+" (transfer."+lang+" line ") {
				t.Fatalf("err %q where %q: want the message as raised and the file line apart", e.Message, e.Where)
			}
			_, err = call(t, c, h, name, 2, 9, "1", nil, nil)
			wantSignal(t, err, "account 9 does not exist")
			if h.rollbacks != 2 || money(h.balances[1]) != "74.50" || money(h.balances[2]) != "75.50" {
				t.Fatalf("failed transfers changed balances: %v %v, %d rollbacks", h.balances[1], h.balances[2], h.rollbacks)
			}
			_, err = call(t, c, h, name, 1, 1, "1", nil, nil)
			wantSignal(t, err, "cannot transfer to the same account")
			_, err = call(t, c, h, name, 1, 2, "abc", nil, nil)
			if e, ok := sqlerr.As(err); !ok || e.Code != sqlerr.ErTruncatedWrongField {
				t.Fatalf("bad amount: %v", err)
			}
		})
		t.Run("inventory/"+lang, func(t *testing.T) {
			h := newTables()
			name := "inventory_decrement_" + lang
			outs, err := call(t, c, h, name, 1, 3, nil)
			if err != nil || !reflect.DeepEqual(outs, []any{nil, nil, int64(7)}) {
				t.Fatalf("decrement = %v, %v", outs, err)
			}
			_, err = call(t, c, h, name, 1, 8, nil)
			wantSignal(t, err, "insufficient stock for item 1: 7 left, 8 wanted")
			_, err = call(t, c, h, name, 9, 1, nil)
			wantSignal(t, err, "item 9 does not exist")
			_, err = call(t, c, h, name, 1, 0, nil)
			wantSignal(t, err, "quantity must be positive, got 0")
			outs, err = call(t, c, h, name, 1, 7, nil)
			if err != nil || outs[2] != int64(0) || h.stock[1] != 0 {
				t.Fatalf("to zero = %v, %v, stock %d", outs, err, h.stock[1])
			}
		})
	}
}
func (tb *tables) Emit(ctx context.Context, res *procs.Result) error { return nil }
func (tb *tables) Note(ctx context.Context, msg string) error        { return nil }
