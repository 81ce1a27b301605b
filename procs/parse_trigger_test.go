package procs

import (
	"testing"

	"github.com/plrun/plrun/sqlerr"
)

func TestParseCreateTrigger(t *testing.T) {
	st, err := ParseCreateTrigger("CREATE OR REPLACE DEFINER = `root`@`localhost` TRIGGER IF NOT EXISTS d.`tr 1` AFTER update ON d.t FOR EACH ROW FOLLOWS other BEGIN SET @x = 1; END;")
	if err != nil {
		t.Fatal(err)
	}
	d := st.Def
	if !st.OrReplace || !st.IfNotExists || d.DB != "d" || d.Name != "tr 1" || d.Timing != "AFTER" || d.Event != "UPDATE" ||
		d.TableDB != "d" || d.Table != "t" || d.Order != "FOLLOWS" || d.OrderOther != "other" || d.Body != "BEGIN SET @x = 1; END" {
		t.Fatalf("parsed %+v %+v", st, d)
	}
	for _, bad := range []string{
		"CREATE TRIGGER tr INSERT ON t FOR EACH ROW SET @x = 1",        // no timing
		"CREATE TRIGGER tr BEFORE INSERT ON t SET @x = 1",              // no FOR EACH ROW
		"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW",            // no body
		"CREATE TRIGGER tr BEFORE TRUNCATE ON t FOR EACH ROW SET @x=1", // no such event
		"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW PRECEDES",   // no trigger named
	} {
		if _, err := ParseCreateTrigger(bad); err == nil {
			t.Errorf("%s: parsed", bad)
		} else if e, ok := sqlerr.As(err); !ok || e.Code != sqlerr.ErParse {
			t.Errorf("%s: %v, want 1064", bad, err)
		}
	}
	if !IsCreateTrigger("create definer=current_user trigger x before insert on t for each row set @a=1") || IsCreateTrigger("CREATE TABLE trigger (a int)") {
		t.Error("IsCreateTrigger")
	}
}

func TestTriggerOrder(t *testing.T) {
	c := NewCatalog()
	mk := func(name, order, other string) *Trigger {
		return &Trigger{DB: "d", Def: TriggerDef{Name: name, Timing: "BEFORE", Event: "INSERT", Table: "t", Order: order, OrderOther: other}}
	}
	for _, tr := range []*Trigger{mk("a", "", ""), mk("b", "", ""), mk("c", "PRECEDES", "a"), mk("e", "FOLLOWS", "a")} {
		if err := c.CreateTrigger(tr, false); err != nil {
			t.Fatal(err)
		}
	}
	var got string
	for _, tr := range c.TriggersOf("D", "T", "BEFORE", "INSERT") {
		got += tr.Def.Name
	}
	if got != "caeb" {
		t.Fatalf("order %q, want caeb", got)
	}
	if err := c.CreateTrigger(mk("a", "", ""), false); err == nil {
		t.Fatal("duplicate created")
	}
	if err := c.CreateTrigger(mk("f", "FOLLOWS", "zz"), false); err == nil {
		t.Fatal("FOLLOWS a missing trigger")
	}
	c.RenameTableTriggers("d", "t", "d", "u")
	if len(c.TriggersOf("d", "u", "BEFORE", "INSERT")) != 4 || c.HasTriggers("d", "t") {
		t.Fatal("rename did not move the triggers")
	}
	c.DropTableTriggers("d", "u")
	if c.HasTriggers("d", "u") {
		t.Fatal("drop table kept triggers")
	}
}
