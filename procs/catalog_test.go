package procs_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/runtime/js"
	"github.com/plrun/plrun/runtime/lua"
	"github.com/plrun/plrun/runtime/rttest"
	"github.com/plrun/plrun/sqlerr"
)

func newCatalog() *procs.Catalog {
	return procs.NewCatalog(lua.New(lua.Options{}), js.New(js.Options{}))
}

func mustParse(t *testing.T, sql string) *procs.Definition {
	t.Helper()
	def, _, err := procs.ParseCreate(sql)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

func wantCode(t *testing.T, err error, code uint16, msg string) {
	t.Helper()
	e, ok := sqlerr.As(err)
	if !ok || e.Code != code || !strings.Contains(e.Message, msg) {
		t.Fatalf("err = %v, want %d containing %q", err, code, msg)
	}
}

func TestCatalogCreateDropGet(t *testing.T) {
	c := newCatalog()
	def := mustParse(t, "CREATE PROCEDURE Double(IN a INT, OUT b BIGINT) LANGUAGE LUA AS $$ b = a * 2 $$")
	if err := c.Create(def, false); err != nil {
		t.Fatal(err)
	}
	def.Body = "mutated by the caller"
	got, prog, ok := c.Get("TEST", "double")
	if !ok || prog == nil || got.Body != " b = a * 2 " || got.Created == "" || got.Modified == "" {
		t.Fatalf("Get = %+v %v %v", got, prog, ok)
	}
	wantCode(t, c.Create(def, false), sqlerr.ErSPAlreadyExists, "PROCEDURE Double already exists")
	js := mustParse(t, "CREATE PROCEDURE double(IN a INT, OUT b BIGINT) LANGUAGE JAVASCRIPT AS $$ b = a * 3; $$")
	if err := c.Create(js, true); err != nil {
		t.Fatal(err)
	}
	if got2, _, _ := c.Get("test", "DOUBLE"); got2.Language != "JAVASCRIPT" || got2.Created != got.Created {
		t.Fatalf("replace: %+v", got2)
	}
	outs, err := c.Call(context.Background(), &rttest.FakeHost{}, "test", "double", []any{"5", nil})
	if err != nil || !reflect.DeepEqual(outs, []any{nil, int64(15)}) {
		t.Fatalf("Call = %v, %v", outs, err)
	}
	wantCode(t, c.Drop("test", "nope", false), sqlerr.ErSPDoesNotExist, "PROCEDURE test.nope does not exist")
	if err := c.Drop("test", "nope", true); err != nil {
		t.Fatal(err)
	}
	if err := c.Drop("Test", "Double", false); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := c.Get("test", "double"); ok {
		t.Fatal("still there after Drop")
	}
	_, err = c.Call(context.Background(), &rttest.FakeHost{}, "test", "double", nil)
	wantCode(t, err, sqlerr.ErSPDoesNotExist, "PROCEDURE test.double does not exist")
}

func TestCatalogCreateErrors(t *testing.T) {
	c := newCatalog()
	wantCode(t, c.Create(&procs.Definition{Name: "p", Language: "PYTHON"}, false), sqlerr.ErParse, "unknown LANGUAGE PYTHON")
	wantCode(t, c.Create(mustParse(t, "CREATE PROCEDURE p() LANGUAGE LUA AS $$\nx = = 1 $$"), false), sqlerr.ErParse, "PROCEDURE p line 2")
	wantCode(t, c.Create(mustParse(t, "CREATE PROCEDURE p() LANGUAGE JAVASCRIPT AS $$\n\nlet = ; $$"), false), sqlerr.ErParse, "PROCEDURE p line 3")
	if len(c.List()) != 0 {
		t.Fatal("failed creates left entries")
	}
}

func TestCatalogCallConvertsArgumentsAndOuts(t *testing.T) {
	c := newCatalog()
	def := mustParse(t, "CREATE PROCEDURE p(IN a INT, IN d DECIMAL(12,2), OUT s DECIMAL(12,2), INOUT n INT) LANGUAGE LUA AS $$\n"+
		"s = d\nn = n + a $$")
	if err := c.Create(def, false); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	outs, err := c.Call(ctx, &rttest.FakeHost{}, "test", "p", []any{"2", 10.5, "ignored", int64(40)})
	if err != nil || !reflect.DeepEqual(outs, []any{nil, nil, "10.50", int64(42)}) {
		t.Fatalf("Call = %#v, %v", outs, err)
	}
	_, err = c.Call(ctx, &rttest.FakeHost{}, "test", "p", []any{"2"})
	wantCode(t, err, sqlerr.ErSPWrongNoOfArgs, "Incorrect number of arguments for PROCEDURE test.p; expected 4, got 1")
	_, err = c.Call(ctx, &rttest.FakeHost{}, "test", "p", []any{"abc", "1", nil, 1})
	wantCode(t, err, sqlerr.ErTruncatedWrongField, "Incorrect integer value: 'abc' for column 'a' at row 1")
	_, err = c.Call(ctx, &rttest.FakeHost{}, "test", "p", []any{1, "x1", nil, 1})
	wantCode(t, err, sqlerr.ErTruncatedWrongField, "Incorrect decimal value: 'x1' for column 'd' at row 1")
	// An OUT value that does not fit its type is an error too.
	_, err = c.Call(ctx, &rttest.FakeHost{}, "test", "p", []any{1, "1e12", nil, 1})
	wantCode(t, err, sqlerr.ErWarnDataOutOfRange, "column 'd'")
}

func TestCatalogListRestoreJSON(t *testing.T) {
	c := newCatalog()
	for _, sql := range []string{
		"CREATE PROCEDURE zeta() LANGUAGE LUA AS $$ $$",
		"CREATE PROCEDURE Alpha(IN a INT) LANGUAGE JAVASCRIPT AS $js$ let x = a; $js$",
	} {
		if err := c.Create(mustParse(t, sql), false); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.CreateIn("other", mustParse(t, "CREATE PROCEDURE mid() LANGUAGE LUA AS $$ $$"), false); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range c.List() {
		names = append(names, d.Name)
	}
	if strings.Join(names, ",") != "mid,Alpha,zeta" {
		t.Fatalf("List = %v", names)
	}
	// Snapshot the test db as JSON, restore into a new catalog.
	data, err := json.Marshal(c.ListIn("test"))
	if err != nil {
		t.Fatal(err)
	}
	var defs []*procs.Definition
	if err := json.Unmarshal(data, &defs); err != nil {
		t.Fatal(err)
	}
	c2 := newCatalog()
	if err := c2.Restore(defs); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c2.List(), c.ListIn("test")) {
		t.Fatalf("restored %+v\nwant %+v", c2.List(), c.ListIn("test"))
	}
	if _, err := c2.Call(context.Background(), &rttest.FakeHost{}, "test", "alpha", []any{1}); err != nil {
		t.Fatal(err)
	}
	// All or nothing.
	bad := append(defs, &procs.Definition{Name: "broken", Language: "LUA", Body: "x = = 1"})
	c3 := newCatalog()
	if err := c3.Restore(bad); err == nil || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("Restore with a broken body: %v", err)
	}
	if len(c3.List()) != 0 {
		t.Fatal("failed Restore left entries")
	}
}

// Calls, creates and drops race on one catalog (run with -race).
func TestCatalogConcurrent(t *testing.T) {
	c := newCatalog()
	if err := c.Create(mustParse(t, "CREATE PROCEDURE p(IN a INT, OUT b INT) LANGUAGE LUA AS $$ b = a + 1 $$"), false); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(2)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				outs, err := c.Call(context.Background(), &rttest.FakeHost{}, "test", "p", []any{i, nil})
				if err != nil || outs[1] != int64(i+1) {
					t.Errorf("Call: %v %v", outs, err)
					return
				}
			}
		}(g)
		go func(g int) {
			defer wg.Done()
			name := "tmp" + string(rune('a'+g))
			for i := 0; i < 20; i++ {
				if err := c.Create(mustParse(t, "CREATE PROCEDURE "+name+"() LANGUAGE JAVASCRIPT AS $$ $$"), true); err != nil {
					t.Error(err)
				}
				_ = c.List()
				if err := c.Drop("test", name, false); err != nil {
					t.Error(err)
				}
			}
		}(g)
	}
	wg.Wait()
}
