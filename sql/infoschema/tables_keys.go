package infoschema

import (
	"sort"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// The tables about keys: STATISTICS, TABLE_CONSTRAINTS, KEY_COLUMN_USAGE,
// REFERENTIAL_CONSTRAINTS.

func init() {
	register(&table{name: "STATISTICS", cols: []column{
		{"TABLE_CATALOG", varchar(512), true}, {"TABLE_SCHEMA", varchar(64), true}, {"TABLE_NAME", varchar(64), true},
		{"NON_UNIQUE", bigint(1), true}, {"INDEX_SCHEMA", varchar(64), true}, {"INDEX_NAME", varchar(64), true},
		{"SEQ_IN_INDEX", types.ColType{Base: types.TInt, Unsigned: true, Length: 2}, true}, {"COLUMN_NAME", varchar(64), true},
		{"COLLATION", varchar(1), false}, {"CARDINALITY", bigint(21), false}, {"SUB_PART", bigint(3), false},
		{"PACKED", varchar(10), false}, {"NULLABLE", varchar(3), true}, {"INDEX_TYPE", varchar(16), true},
		{"COMMENT", varchar(16), false}, {"INDEX_COMMENT", varchar(1024), true}, {"IGNORED", varchar(3), true},
	}, rows: statisticsRows, schemaCol: "TABLE_SCHEMA", nameCol: "TABLE_NAME"})
	register(&table{name: "TABLE_CONSTRAINTS", cols: []column{
		{"CONSTRAINT_CATALOG", varchar(512), true}, {"CONSTRAINT_SCHEMA", varchar(64), true}, {"CONSTRAINT_NAME", varchar(64), true},
		{"TABLE_SCHEMA", varchar(64), true}, {"TABLE_NAME", varchar(64), true}, {"CONSTRAINT_TYPE", varchar(64), true},
	}, rows: tableConstraintsRows, schemaCol: "TABLE_SCHEMA", nameCol: "TABLE_NAME"})
	register(&table{name: "KEY_COLUMN_USAGE", cols: []column{
		{"CONSTRAINT_CATALOG", varchar(512), true}, {"CONSTRAINT_SCHEMA", varchar(64), true}, {"CONSTRAINT_NAME", varchar(64), true},
		{"TABLE_CATALOG", varchar(512), true}, {"TABLE_SCHEMA", varchar(64), true}, {"TABLE_NAME", varchar(64), true},
		{"COLUMN_NAME", varchar(64), true}, {"ORDINAL_POSITION", bigint(10), true}, {"POSITION_IN_UNIQUE_CONSTRAINT", bigint(10), false},
		{"REFERENCED_TABLE_SCHEMA", varchar(64), false}, {"REFERENCED_TABLE_NAME", varchar(64), false},
		{"REFERENCED_COLUMN_NAME", varchar(64), false},
	}, rows: keyColumnUsageRows, schemaCol: "TABLE_SCHEMA", nameCol: "TABLE_NAME"})
	register(&table{name: "REFERENTIAL_CONSTRAINTS", cols: []column{
		{"CONSTRAINT_CATALOG", varchar(512), true}, {"CONSTRAINT_SCHEMA", varchar(64), true}, {"CONSTRAINT_NAME", varchar(64), true},
		{"UNIQUE_CONSTRAINT_CATALOG", varchar(512), true}, {"UNIQUE_CONSTRAINT_SCHEMA", varchar(64), true},
		{"UNIQUE_CONSTRAINT_NAME", varchar(64), false}, {"MATCH_OPTION", varchar(64), true}, {"UPDATE_RULE", varchar(64), true},
		{"DELETE_RULE", varchar(64), true}, {"TABLE_NAME", varchar(64), true}, {"REFERENCED_TABLE_NAME", varchar(64), false},
	}, rows: referentialRows, schemaCol: "CONSTRAINT_SCHEMA", nameCol: "TABLE_NAME"})
}

// IndexOrder is def's indexes as MariaDB ranks them: the primary key, the
// unique keys, then the others, each group in the order defined.
func IndexOrder(def *storage.TableDef) []*storage.IndexDef {
	out := make([]*storage.IndexDef, len(def.Indexes))
	for i := range def.Indexes {
		out[i] = &def.Indexes[i]
	}
	rank := func(ix *storage.IndexDef) int {
		switch {
		case ix.Primary:
			return 0
		case ix.Unique:
			return 1
		}
		return 2
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

func statisticsRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	eachTable(src.Catalog(), f, func(t *storage.Table) { out = append(out, StatisticsOf(t)...) })
	return out
}

// StatisticsOf is t's rows of STATISTICS (SHOW INDEX's, see IndexRow).
func StatisticsOf(t *storage.Table) [][]types.Value {
	var out [][]types.Value
	def := t.Def
	card := i64(int64(t.RowCount()))
	for _, ix := range IndexOrder(def) {
		nonUnique := int64(1)
		if ix.Unique {
			nonUnique = 0
		}
		for seq, c := range ix.Cols {
			nullable := ""
			if !def.Columns[c].NotNull {
				nullable = "YES"
			}
			collation := "A"
			if seq < len(ix.Desc) && ix.Desc[seq] {
				collation = "D"
			}
			subPart := null
			if seq < len(ix.Prefix) && ix.Prefix[seq] > 0 {
				subPart = i64(int64(ix.Prefix[seq]))
			}
			out = append(out, []types.Value{str("def"), str(def.DB), str(def.Name), i64(nonUnique), str(def.DB), str(ix.Name),
				u64(uint64(seq + 1)), str(def.Columns[c].Name), str(collation), card, subPart, null, str(nullable), str("BTREE"),
				str(""), str(""), str("NO")})
		}
	}
	return out
}

// showIndexCols are the STATISTICS columns SHOW INDEX prints, under its
// names.
var showIndexCols = []struct {
	at   int
	name string
}{{2, "Table"}, {3, "Non_unique"}, {5, "Key_name"}, {6, "Seq_in_index"}, {7, "Column_name"}, {8, "Collation"},
	{9, "Cardinality"}, {10, "Sub_part"}, {11, "Packed"}, {12, "Null"}, {13, "Index_type"}, {14, "Comment"},
	{15, "Index_comment"}, {16, "Ignored"}}

// ShowIndex is SHOW INDEX FROM t: its columns and rows, as MariaDB prints
// them (STATISTICS' rows under SHOW INDEX's names).
func ShowIndex(t *storage.Table) ([]storage.Column, [][]types.Value) {
	stats := tables["STATISTICS"].def.Columns
	cols := make([]storage.Column, len(showIndexCols))
	for i, c := range showIndexCols {
		cols[i] = stats[c.at]
		cols[i].Name = c.name
	}
	var rows [][]types.Value
	for _, r := range StatisticsOf(t) {
		row := make([]types.Value, len(showIndexCols))
		for i, c := range showIndexCols {
			row[i] = r[c.at]
		}
		rows = append(rows, row)
	}
	return cols, rows
}

func tableConstraintsRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	eachTable(src.Catalog(), f, func(t *storage.Table) {
		for _, ix := range IndexOrder(t.Def) {
			kind := "UNIQUE"
			switch {
			case ix.Primary:
				kind = "PRIMARY KEY"
			case !ix.Unique:
				continue
			}
			out = append(out, []types.Value{str("def"), str(t.Def.DB), str(ix.Name), str(t.Def.DB), str(t.Def.Name), str(kind)})
		}
		out = append(out, foreignKeyConstraintRows(t)...)
	})
	return out
}

func keyColumnUsageRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	eachTable(src.Catalog(), f, func(t *storage.Table) {
		def := t.Def
		for _, ix := range IndexOrder(def) {
			if !ix.Unique {
				continue
			}
			for seq, c := range ix.Cols {
				out = append(out, []types.Value{str("def"), str(def.DB), str(ix.Name), str("def"), str(def.DB), str(def.Name),
					str(def.Columns[c].Name), i64(int64(seq + 1)), null, null, null, null})
			}
		}
		out = append(out, foreignKeyColumnRows(t)...)
	})
	return out
}
