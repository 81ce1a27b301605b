package infoschema

import (
	"sort"
	"strings"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// Name is the schema's name, as SHOW DATABASES lists it.
const Name = "information_schema"

// PerfName is performance_schema, the second virtual schema: only the
// tables plrun fills for real (perfschema.go).
const PerfName = "performance_schema"

// column is one column of an information_schema table.
type column struct {
	name    string
	typ     types.ColType
	notNull bool
}

// table is one information_schema table: its columns and what builds
// its rows.
type table struct {
	name string
	cols []column
	rows func(src Source, f filter) [][]types.Value
	def  *storage.TableDef // built once from cols
	// schemaCol and nameCol are the columns naming the database and table
	// a row is about, if any: a WHERE equality on them narrows the
	// catalog walk (filter).
	schemaCol, nameCol string
}

// filter is what a statement's WHERE equalities leave of the catalog:
// the rows about other databases or tables are not built.
type filter struct{ schema, table *string }

func (t *table) filterOf(eq map[string]string) filter {
	var f filter
	if v, ok := eq[t.schemaCol]; ok && t.schemaCol != "" {
		f.schema = &v
	}
	if v, ok := eq[t.nameCol]; ok && t.nameCol != "" {
		f.table = &v
	}
	return f
}

// keeps reports whether rows about db.name may match.
func (f filter) keeps(db, name string) bool {
	return (f.schema == nil || types.CompareStrings(db, *f.schema) == 0) &&
		(f.table == nil || name == "" || types.CompareStrings(name, *f.table) == 0)
}

// eachTable calls fn for every table of the catalog f keeps.
func eachTable(cat *storage.Catalog, f filter, fn func(t *storage.Table)) {
	for _, db := range cat.Databases() {
		if !f.keeps(db, "") {
			continue
		}
		for _, t := range cat.Tables(db) {
			if f.keeps(db, t.Def.Name) {
				fn(t)
			}
		}
	}
}

// tables are information_schema's tables by upper-case name; every
// tables_*.go file registers its own.
var tables = map[string]*table{}

func register(t *table) {
	// utf8mb3, as MariaDB reports its information_schema (plrun compares
	// its strings as it compares any others)
	def := &storage.TableDef{DB: Name, Name: t.name, Engine: "MEMORY", Charset: "utf8mb3", Collate: "utf8mb3_general_ci"}
	for _, c := range t.cols {
		def.Columns = append(def.Columns, storage.Column{Name: c.name, Type: c.typ, NotNull: c.notNull})
	}
	t.def = def
	tables[t.name] = t
}

// Schema is information_schema and performance_schema as one session
// sees them (exec.VirtualSchema).
type Schema struct{ Src Source }

// Schema is the virtual schema db names, as SHOW DATABASES spells it.
func (s *Schema) Schema(db string) (string, bool) {
	switch {
	case strings.EqualFold(db, Name):
		return Name, true
	case strings.EqualFold(db, PerfName):
		return PerfName, true
	}
	return "", false
}

// tablesOf is the virtual schema db's tables by upper-case name.
func tablesOf(db string) map[string]*table {
	if strings.EqualFold(db, PerfName) {
		return perfTables
	}
	return tables
}

// Table builds the named table's rows now; nil if there is no such
// table. eq are the statement's WHERE equalities (exec.Equalities).
func (s *Schema) Table(db, name string, eq map[string]string) *storage.Table {
	t := tablesOf(db)[strings.ToUpper(name)]
	if t == nil {
		return nil
	}
	rows := t.rows(s.Src, t.filterOf(eq))
	if v, ok := s.Src.(Visibility); ok {
		rows = t.visible(v, rows)
	}
	return Build(t.def, rows)
}

// TableNames lists a virtual schema's tables, sorted (SHOW TABLES).
func TableNames(db string) []string {
	ts := tablesOf(db)
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		out = append(out, t.name)
	}
	sort.Strings(out)
	return out
}

// Build is a transient table of def holding rows, committed at LSN 0 so
// every snapshot sees them; it is in no catalog.
func Build(def *storage.TableDef, rows [][]types.Value) *storage.Table {
	t := storage.NewTable(def)
	for i, r := range rows {
		pk := []types.Value{types.UintValue(uint64(i + 1))}
		t.Apply(storage.KeyOf(pk), pk, r, 0)
	}
	return t
}

// Column types as MariaDB's information_schema declares them.
func varchar(n int) types.ColType { return types.ColType{Base: types.TVarchar, Length: n} }
func ubigint(w int) types.ColType {
	return types.ColType{Base: types.TBigInt, Unsigned: true, Length: w}
}
func bigint(w int) types.ColType { return types.ColType{Base: types.TBigInt, Length: w} }
func intw(w int) types.ColType   { return types.ColType{Base: types.TInt, Length: w} }

var (
	longtext = types.ColType{Base: types.TText, Length: 65535}
	datetime = types.ColType{Base: types.TDatetime}
)

// Row values.
func str(s string) types.Value { return types.StringValue(s) }
func u64(n uint64) types.Value { return types.UintValue(n) }
func i64(n int64) types.Value  { return types.IntValue(n) }

var null = types.Null

// strOrNull is NULL for "".
func strOrNull(s string) types.Value {
	if s == "" {
		return null
	}
	return str(s)
}
