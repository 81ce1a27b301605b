package storage

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/plrun/plrun/types"
)

// A definition logged before TimestampZone existed is a SYSTEM table: its
// TIMESTAMPs were stored as local wall times and are read as such; one
// written now keeps its zone through the log and snapshots.
func TestTimestampZoneOfLoggedDefinitions(t *testing.T) {
	old := []byte(`{"ID":7,"DB":"test","Name":"t","Columns":[{"Name":"ts","Type":{"Base":13}}]}`)
	var d TableDef
	if err := json.Unmarshal(old, &d); err != nil {
		t.Fatal(err)
	}
	if d.Columns[0].Type.Base != types.TTimestamp {
		t.Fatalf("Base 13 is no longer TIMESTAMP: %v", d.Columns[0].Type)
	}
	if d.TimestampZone != TimestampsSystem || d.TimestampStore() != time.Local {
		t.Fatalf("old definition: zone %q", d.TimestampZone)
	}
	for _, zone := range []string{TimestampsUTC, TimestampsSystem} {
		in := TableDef{Name: "t", TimestampZone: zone}
		b, err := json.Marshal(&in)
		if err != nil {
			t.Fatal(err)
		}
		var out TableDef
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		if out.TimestampZone != zone {
			t.Fatalf("zone %q came back as %q", zone, out.TimestampZone)
		}
	}
	if (&TableDef{}).TimestampStore() != nil {
		t.Fatal("a transient table's values must not be converted")
	}
}
