package metrics

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDashboardNamesExist: every metric the example Grafana dashboard
// (examples/grafana/plrun-dashboard.json) queries is one the endpoint
// exposes, so renaming a metric without the dashboard fails here.
func TestDashboardNamesExist(t *testing.T) {
	raw, err := os.ReadFile("../examples/grafana/plrun-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatal(err)
	}
	var src fakeSource
	src.m.Statements.Com = map[string]uint64{"select": 1}
	families, err := NewRegistry(src).Gather()
	if err != nil {
		t.Fatal(err)
	}
	exposed := map[string]bool{}
	for _, f := range families {
		exposed[f.GetName()] = true
	}
	name := regexp.MustCompile(`\b(?:plrun|go|process)_[a-z_]+\b`)
	queried := 0
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			for _, n := range name.FindAllString(tg.Expr, -1) {
				queried++
				base := n
				for _, suffix := range []string{"_bucket", "_sum", "_count"} {
					if b, ok := strings.CutSuffix(n, suffix); ok && exposed[b] {
						base = b
					}
				}
				if !exposed[base] {
					t.Errorf("panel %q queries %s, which /metrics does not expose", p.Title, n)
				}
			}
		}
	}
	if queried < 20 {
		t.Fatalf("only %d metric references in the dashboard", queried)
	}
}
