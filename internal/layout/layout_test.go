package layout

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const mod = "github.com/plrun/plrun"

// A rule forbids packages matching from to reach packages matching to:
// directly, or (transitive) through any chain of imports.
type rule struct {
	from, to   []string // module-relative paths; a trailing "/..." also matches below
	transitive bool
	// ownOnly: a chain may pass only through plrun's own packages (what
	// another module imports is its business: pebble links Prometheus).
	ownOnly bool
	why     string
}

// sqlLayers is the order of the SQL layer's packages: one may import only
// those of a lower rank (parse and expr are siblings).
var sqlLayers = map[string]int{
	"sql/sysvar":       0,
	"sql/privilege":    0,
	"sql/datetime":     0,
	"sql/jsondoc":      0,
	"sql/parse":        1,
	"sql/acl":          1,
	"sql/expr":         1,
	"sql/plan":         2,
	"sql/funcs":        2,
	"sql/jsonfuncs":    2,
	"sql/constraint":   2,
	"sql/counters":     2,
	"sql/querylog":     2,
	"sql/query":        2,
	"sql/access":       2,
	"sql/aggregate":    2,
	"sql/coerce":       2,
	"sql/compose":      3,
	"sql/window":       3,
	"sql/view":         4,
	"sql/dml":          5,
	"sql/exec":         6,
	"sql/infoschema":   6,
	"sql/psm":          7,
	"sql/show":         7,
	"sql/enginestatus": 7,
	"sql/callout":      7,
	"sql/tablelock":    7,
	"sql/dataio":       7,
	"sql/ddl/tabledef": 8,
	"sql/routines":     8,
	"sql/ddl/alter":    9,
	"sql/ddl":          10,
	"sql":              11,
}

var vmRuntimes = []string{"runtime/lua/...", "runtime/js/...", "runtime/builtin", "github.com/yuin/gopher-lua/...", "github.com/dop251/goja/..."}

var rules = []rule{
	{from: []string{"sql/..."}, to: []string{"wal/...", "asynccommit/..."}, why: "the SQL layer reaches the log only through txn and the engine"},
	{from: []string{"sql/...", "engine/...", "txn/...", "procs/...", "storage/...", "lockmgr/...", "asynccommit/...", "wal/...", "hotrow/...", "types/...", "sqlerr/...", "membudget/..."},
		to: vmRuntimes, transitive: true, why: "nothing below the faces imports a VM runtime: the caller registers them"},
	{from: []string{"storage/...", "lockmgr/...", "asynccommit/...", "wal/..."}, to: []string{"txn/...", "sql/...", "engine/..."}, transitive: true,
		why: "the storage, lock and log layers know nothing of transactions, SQL or the engine"},
	{from: []string{"sql/..."}, to: []string{"engine/...", "server/...", "driver/...", "cmd/...", ""}, transitive: true,
		why: "the SQL layer is below the engine and the faces"},
	{from: []string{"engine/..."}, to: []string{"server/...", "driver/...", "cmd/...", "bench/...", ""}, transitive: true,
		why: "the engine is below the faces"},
	{from: []string{"sql/...", "engine/...", "txn/...", "procs/...", "storage/...", "lockmgr/...", "asynccommit/...", "wal/...", "hotrow/...", "types/...", "sqlerr/...", "membudget/...", "internal/histogram"},
		to: []string{"github.com/prometheus/...", "metrics/..."}, transitive: true, ownOnly: true,
		why: "the core counts with atomics and internal/histogram; only the metrics package (a face) knows Prometheus"},
}

// graph is import path -> direct imports, for every package ./... reaches.
func graph(t *testing.T) map[string][]string {
	t.Helper()
	touchSources(t)
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \",\"}}", mod+"/...")
	cmd.Dir = "../.."
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v\n%s", err, errb.String())
	}
	g := map[string][]string{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		path, imports, _ := strings.Cut(sc.Text(), " ")
		g[path] = nil
		if imports != "" {
			g[path] = strings.Split(imports, ",")
		}
	}
	return g
}

// touchSources stats every Go file of the module, so that go test's cache
// (which sees what the test process opens, not what go list reads) reruns
// this test whenever a source file changes.
func touchSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != "../..") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// full makes a rule path an import path: module-relative unless it names
// another module ("" is the module's root package).
func full(p string) string {
	if strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
		return p
	}
	if p == "" {
		return mod
	}
	return mod + "/" + p
}

func matches(pattern, path string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		b := full(base)
		return path == b || strings.HasPrefix(path, b+"/")
	}
	return path == full(pattern)
}

func matchAny(patterns []string, path string) bool {
	for _, p := range patterns {
		if matches(p, path) {
			return true
		}
	}
	return false
}

// violations lists every chain from a package under r.from to one under
// r.to (the first found for each pair).
func violations(g map[string][]string, r rule) []string {
	var out []string
	for from := range g {
		if !matchAny(r.from, from) || strings.HasSuffix(from, ".test") {
			continue
		}
		// breadth-first, remembering how each package was reached
		prev := map[string]string{from: ""}
		queue := []string{from}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, q := range g[p] {
				if _, seen := prev[q]; seen {
					continue
				}
				prev[q] = p
				if matchAny(r.to, q) && !matchAny(r.from, q) {
					chain := []string{q}
					for c := p; c != ""; c = prev[c] {
						chain = append([]string{c}, chain...)
					}
					out = append(out, strings.Join(chain, " -> "))
					continue
				}
				if r.transitive && (!r.ownOnly || strings.HasPrefix(q, mod+"/")) {
					queue = append(queue, q)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// layerViolations: a sql package importing one of its own rank or higher.
func layerViolations(g map[string][]string) []string {
	var out []string
	for from, imports := range g {
		fr, ok := sqlLayers[strings.TrimPrefix(from, mod+"/")]
		if !ok || !strings.HasPrefix(from, mod+"/") {
			continue
		}
		for _, q := range imports {
			qr, ok := sqlLayers[strings.TrimPrefix(q, mod+"/")]
			if ok && strings.HasPrefix(q, mod+"/") && qr >= fr {
				out = append(out, fmt.Sprintf("%s (rank %d) imports %s (rank %d)", from, fr, q, qr))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestImportRules fails when a package imports what the layout forbids.
func TestImportRules(t *testing.T) {
	g := graph(t)
	if _, ok := g[mod+"/sql"]; !ok {
		t.Fatal("go list did not list the sql package")
	}
	for _, r := range rules {
		for _, v := range violations(g, r) {
			t.Errorf("%s: %s", r.why, v)
		}
	}
	for _, v := range layerViolations(g) {
		t.Errorf("the SQL layer's arrows point one way (the ranks of sqlLayers): %s", v)
	}
	for _, p := range unranked(g) {
		t.Errorf("%s has no rank in sqlLayers: give it one (README \"Architecture\"), or its imports go unchecked", p)
	}
}

// unranked are the SQL layer's packages sqlLayers does not name.
func unranked(g map[string][]string) []string {
	var out []string
	for p := range g {
		rel, ok := strings.CutPrefix(p, mod+"/")
		if !ok || (rel != "sql" && !strings.HasPrefix(rel, "sql/")) || strings.HasSuffix(p, ".test") {
			continue
		}
		if _, ok := sqlLayers[rel]; !ok {
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return out
}

// TestRulesCatchViolations: the checker itself finds a direct, a
// transitive and a layer violation in a made-up graph (so the test above
// cannot pass by checking nothing).
func TestRulesCatchViolations(t *testing.T) {
	g := map[string][]string{
		mod + "/sql":         {mod + "/txn", mod + "/wal"},
		mod + "/sql/expr":    {mod + "/sql/exec"},
		mod + "/sql/exec":    {mod + "/sql/expr"},
		mod + "/txn":         {mod + "/wal", mod + "/procs"},
		mod + "/procs":       {mod + "/runtime/lua"},
		mod + "/runtime/lua": {"github.com/yuin/gopher-lua"},
		mod + "/wal":         nil,
		mod + "/storage":     {mod + "/types", mod + "/txn"},
	}
	if v := violations(g, rules[0]); len(v) != 1 || v[0] != mod+"/sql -> "+mod+"/wal" {
		t.Errorf("direct rule: %v", v)
	}
	if v := violations(g, rules[1]); len(v) == 0 {
		t.Error("transitive runtime rule found nothing in sql -> txn -> procs -> runtime/lua")
	}
	if v := violations(g, rules[2]); len(v) != 1 {
		t.Errorf("storage -> txn: %v", v)
	}
	if v := layerViolations(g); len(v) != 1 || !strings.Contains(v[0], "sql/expr (rank 1) imports") {
		t.Errorf("layer rule: %v", v)
	}
	g[mod+"/sql/newpkg"] = nil
	if v := unranked(g); len(v) != 1 || v[0] != "sql/newpkg" {
		t.Errorf("unranked sql package: %v", v)
	}
}
