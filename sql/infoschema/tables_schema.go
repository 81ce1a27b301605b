package infoschema

import (
	"sort"
	"strings"
	"time"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// The tables about databases, tables and columns.

func init() {
	register(&table{name: "SCHEMATA", cols: []column{
		{"CATALOG_NAME", varchar(512), true}, {"SCHEMA_NAME", varchar(64), true},
		{"DEFAULT_CHARACTER_SET_NAME", varchar(32), true}, {"DEFAULT_COLLATION_NAME", varchar(64), true},
		{"SQL_PATH", varchar(512), false}, {"SCHEMA_COMMENT", varchar(1024), true},
	}, rows: schemataRows, schemaCol: "SCHEMA_NAME"})
	register(&table{name: "TABLES", cols: tablesColumns, rows: tablesRows, schemaCol: "TABLE_SCHEMA", nameCol: "TABLE_NAME"})
	register(&table{name: "COLUMNS", cols: []column{
		{"TABLE_CATALOG", varchar(512), true}, {"TABLE_SCHEMA", varchar(64), true}, {"TABLE_NAME", varchar(64), true},
		{"COLUMN_NAME", varchar(64), true}, {"ORDINAL_POSITION", ubigint(21), true}, {"COLUMN_DEFAULT", longtext, false},
		{"IS_NULLABLE", varchar(3), true}, {"DATA_TYPE", varchar(64), true},
		{"CHARACTER_MAXIMUM_LENGTH", ubigint(21), false}, {"CHARACTER_OCTET_LENGTH", ubigint(21), false},
		{"NUMERIC_PRECISION", ubigint(21), false}, {"NUMERIC_SCALE", ubigint(21), false}, {"DATETIME_PRECISION", ubigint(21), false},
		{"CHARACTER_SET_NAME", varchar(32), false}, {"COLLATION_NAME", varchar(64), false}, {"COLUMN_TYPE", longtext, true},
		{"COLUMN_KEY", varchar(3), true}, {"EXTRA", varchar(80), true}, {"PRIVILEGES", varchar(80), true},
		{"COLUMN_COMMENT", varchar(1024), true}, {"IS_GENERATED", varchar(6), true}, {"GENERATION_EXPRESSION", longtext, false},
	}, rows: columnsRows, schemaCol: "TABLE_SCHEMA", nameCol: "TABLE_NAME"})
}

// Databases are the catalog's databases and information_schema, as SHOW
// DATABASES lists them: information_schema first, then by name.
func Databases(cat *storage.Catalog) []string {
	dbs := append(cat.Databases(), PerfName)
	sort.Strings(dbs)
	return append([]string{Name}, dbs...)
}

// SchemaCharset is a database's default character set and collation:
// plrun's one, utf8mb4_general_ci, and for information_schema MariaDB's
// utf8mb3_general_ci, as MariaDB reports it.
func SchemaCharset(db string) (charset, collation string) {
	if strings.EqualFold(db, Name) || strings.EqualFold(db, PerfName) {
		return "utf8mb3", "utf8mb3_general_ci"
	}
	return "utf8mb4", "utf8mb4_general_ci"
}

func schemataRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	for _, db := range Databases(src.Catalog()) {
		if !f.keeps(db, "") {
			continue
		}
		charset, collation := SchemaCharset(db)
		out = append(out, []types.Value{str("def"), str(db), str(charset), str(collation), null, str("")})
	}
	return out
}

var tablesColumns = []column{
	{"TABLE_CATALOG", varchar(512), true}, {"TABLE_SCHEMA", varchar(64), true}, {"TABLE_NAME", varchar(64), true},
	{"TABLE_TYPE", varchar(64), true}, {"ENGINE", varchar(64), false}, {"VERSION", ubigint(21), false},
	{"ROW_FORMAT", varchar(10), false}, {"TABLE_ROWS", ubigint(21), false}, {"AVG_ROW_LENGTH", ubigint(21), false},
	{"DATA_LENGTH", ubigint(21), false}, {"MAX_DATA_LENGTH", ubigint(21), false}, {"INDEX_LENGTH", ubigint(21), false},
	{"DATA_FREE", ubigint(21), false}, {"AUTO_INCREMENT", ubigint(21), false}, {"CREATE_TIME", datetime, false},
	{"UPDATE_TIME", datetime, false}, {"CHECK_TIME", datetime, false}, {"TABLE_COLLATION", varchar(64), false},
	{"CHECKSUM", ubigint(21), false}, {"CREATE_OPTIONS", varchar(2048), false}, {"TABLE_COMMENT", varchar(2048), true},
	{"MAX_INDEX_LENGTH", ubigint(21), false}, {"TEMPORARY", varchar(1), false},
}

func tablesRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	for _, name := range TableNames(Name) {
		if f.keeps(Name, name) {
			out = append(out, append([]types.Value{str("def"), str(Name), str(name), str("SYSTEM VIEW")}, SystemStatusRow(Name, name)[1:]...))
		}
	}
	for _, name := range TableNames(PerfName) {
		if f.keeps(PerfName, name) {
			out = append(out, append([]types.Value{str("def"), str(PerfName), str(name), str("BASE TABLE")}, SystemStatusRow(PerfName, name)[1:]...))
		}
	}
	cat := src.Catalog()
	eachTable(cat, f, func(t *storage.Table) {
		out = append(out, append([]types.Value{str("def"), str(t.Def.DB)}, TableStatus(t)...))
	})
	for _, db := range cat.Databases() {
		for _, v := range cat.Views(db) {
			if f.keeps(db, v.Name) {
				out = append(out, append([]types.Value{str("def"), str(db)}, ViewStatus(v)...))
			}
		}
	}
	return out
}

// pageSize is InnoDB's page: MariaDB reports table and index sizes in
// whole pages, at least one for the table and one per secondary index.
const pageSize = 16384

// TableStatus is a table's row of SHOW TABLE STATUS, which is
// information_schema.TABLES from TABLE_NAME on (with TABLE_TYPE after
// the name, which SHOW TABLE STATUS leaves out: see StatusRow).
func TableStatus(t *storage.Table) []types.Value {
	def := t.Def
	rows := uint64(t.RowCount())
	// plrun keeps rows in memory: its sizes are InnoDB's estimate of the
	// same rows (pages of a rough row width), so that tools that size
	// tables from them see numbers of the usual scale.
	dataLen := pages(rows*rowWidth(def)) * pageSize
	var secondary uint64
	for _, ix := range def.Indexes {
		if !ix.Primary {
			secondary++
		}
	}
	indexLen := secondary * pages(rows*16) * pageSize
	avg := uint64(0)
	if rows > 0 {
		avg = dataLen / rows
	}
	auto := null
	if def.AutoIncColumn() >= 0 {
		auto = u64(t.AutoInc() + 1)
	}
	created := null
	if def.Created > 0 {
		created = types.TimeValue(time.Unix(def.Created, 0))
	}
	updated := null
	if u := t.Updated(); u > 0 {
		updated = types.TimeValue(time.Unix(u, 0))
	}
	return []types.Value{str(def.Name), str("BASE TABLE"), str(def.Engine), u64(10), str("Dynamic"), u64(rows), u64(avg),
		u64(dataLen), u64(0), u64(indexLen), u64(0), auto, created, updated, null, str(def.Collate), null, str(""),
		str(def.Comment), u64(0), str("N")}
}

// ViewStatus is a view's row of TABLES from TABLE_NAME on, as MariaDB
// reports a view: all NULL but its type and the comment VIEW.
func ViewStatus(v *storage.ViewDef) []types.Value {
	row := []types.Value{str(v.Name), str("VIEW")}
	for len(row) < len(tablesColumns)-2 {
		row = append(row, null)
	}
	row[len(row)-3] = str("VIEW") // TABLE_COMMENT
	return row
}

// ViewStatusRow is SHOW TABLE STATUS's row of a view.
func ViewStatusRow(v *storage.ViewDef) []types.Value {
	r := ViewStatus(v)
	return append(r[:1:1], r[2:]...)
}

// StatusRow is SHOW TABLE STATUS's row of t: TableStatus without
// TABLE_TYPE.
func StatusRow(t *storage.Table) []types.Value {
	r := TableStatus(t)
	return append(r[:1:1], r[2:]...)
}

// StatusColumns are SHOW TABLE STATUS's columns, with their types.
func StatusColumns() []storage.Column {
	var out []storage.Column
	names := []string{"Name", "", "Engine", "Version", "Row_format", "Rows", "Avg_row_length", "Data_length", "Max_data_length",
		"Index_length", "Data_free", "Auto_increment", "Create_time", "Update_time", "Check_time", "Collation",
		"Checksum", "Create_options", "Comment", "Max_index_length", "Temporary"}
	for i, c := range tablesColumns[2:] {
		if names[i] == "" {
			continue
		}
		out = append(out, storage.Column{Name: names[i], Type: c.typ, NotNull: c.notNull})
	}
	return out
}

func pages(bytes uint64) uint64 { return max(1, (bytes+pageSize-1)/pageSize) }

// rowWidth is a rough stored width of one row of def, in bytes.
func rowWidth(def *storage.TableDef) uint64 {
	w := uint64(20) // InnoDB's record header and transaction fields
	for _, c := range def.Columns {
		switch {
		case c.Type.IsString():
			w += uint64(min(c.Type.Length, 255)/2 + 2)
		default:
			w += 8
		}
	}
	return w
}

func columnsRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	for _, db := range []string{Name, PerfName} {
		for _, name := range TableNames(db) {
			if f.keeps(db, name) {
				out = columnRowsOf(out, tablesOf(db)[strings.ToUpper(name)].def)
			}
		}
	}
	eachTable(src.Catalog(), f, func(t *storage.Table) { out = columnRowsOf(out, sessionDef(src, t.Def)) })
	return viewColumnRows(out, src, f)
}

// columnRowsOf appends def's COLUMNS rows to out.
func columnRowsOf(out [][]types.Value, def *storage.TableDef) [][]types.Value {
	for i := range def.Columns {
		c := &def.Columns[i]
		nullable := "YES"
		if c.NotNull {
			nullable = "NO"
		}
		charMax, octets, prec, scale, dtPrec := lengths(c.Type)
		charset, collation := null, null
		if c.Type.IsString() && !c.Type.IsBinary() {
			charset, collation = str(def.Charset), str(def.Collate)
		}
		typ := c.Type.SQL()
		deflt := ColumnDefault(c)
		if def.DB == Name || def.DB == PerfName {
			deflt = null // MariaDB's virtual tables' columns have none
		}
		out = append(out, []types.Value{str("def"), str(def.DB), str(def.Name), str(c.Name), u64(uint64(i + 1)),
			deflt, str(nullable), str(dataType(typ)), charMax, octets, prec, scale, dtPrec,
			charset, collation, str(typ), str(ColumnKey(def, i)), str(Extra(c)),
			str("select,insert,update,references"), str(c.Comment), str("NEVER"), null})
	}
	return out
}

// SystemStatusRow is SHOW TABLE STATUS's row of a virtual schema's table.
func SystemStatusRow(db, name string) []types.Value {
	if db == PerfName {
		return perfStatusRow(name)
	}
	return []types.Value{str(name), str("MEMORY"), u64(11), str("Fixed"), null, u64(0), u64(0), u64(0), u64(0), u64(0),
		null, null, null, null, str("utf8mb3_general_ci"), null, str(""), str(""), u64(0), str("Y")}
}
