package infoschema

import (
	"strings"

	"github.com/plrun/plrun/storage"
	"github.com/plrun/plrun/types"
)

// The constraints that are not keys: FOREIGN KEYs (REFERENTIAL_CONSTRAINTS,
// and their rows of TABLE_CONSTRAINTS and KEY_COLUMN_USAGE) and CHECK
// constraints (CHECK_CONSTRAINTS).

func init() {
	register(&table{name: "CHECK_CONSTRAINTS", cols: []column{
		{"CONSTRAINT_CATALOG", varchar(512), true}, {"CONSTRAINT_SCHEMA", varchar(64), true}, {"TABLE_NAME", varchar(64), true},
		{"CONSTRAINT_NAME", varchar(64), true}, {"LEVEL", varchar(6), true}, {"CHECK_CLAUSE", longtext, true},
	}, rows: checkConstraintsRows, schemaCol: "CONSTRAINT_SCHEMA", nameCol: "TABLE_NAME"})
}

func checkConstraintsRows(src Source, f filter) [][]types.Value {
	var out [][]types.Value
	eachTable(src.Catalog(), f, func(t *storage.Table) {
		for _, ck := range checksOf(t.Def) {
			level := "Table"
			if ck.Column != "" {
				level = "Column"
			}
			out = append(out, []types.Value{str("def"), str(t.Def.DB), str(t.Def.Name), str(ck.Name), str(level), str(ck.Expr)})
		}
	})
	return out
}

// checksOf are def's CHECK constraints as MariaDB lists them: a JSON
// column's json_valid() (MariaDB's JSON is LONGTEXT with that CHECK),
// then the declared ones.
func checksOf(def *storage.TableDef) []storage.Check {
	var out []storage.Check
	implied := map[string]bool{}
	for _, c := range def.Columns {
		if c.Type.JSON {
			ck := storage.Check{Name: c.Name, Column: c.Name, Expr: "json_valid(`" + strings.ReplaceAll(c.Name, "`", "``") + "`)"}
			out = append(out, ck)
			implied[strings.ToLower(ck.Column)+"\x00"+ck.Expr] = true
		}
	}
	for _, ck := range def.Checks {
		// a dump's LONGTEXT ... CHECK (json_valid(`d`)) is that same check
		if !implied[strings.ToLower(ck.Column)+"\x00"+ck.Expr] {
			out = append(out, ck)
		}
	}
	return out
}

// referencedKey is the parent's key a foreign key references: the first
// (in MariaDB's order) whose leading columns are its referenced columns;
// "" if the parent or such a key is missing.
func referencedKey(cat *storage.Catalog, fk *storage.ForeignKey) string {
	parent := cat.Table(fk.RefDB, fk.RefTable)
	if parent == nil {
		return ""
	}
	for _, ix := range IndexOrder(parent.Def) {
		if len(ix.Cols) < len(fk.RefCols) {
			continue
		}
		match := true
		for i, name := range fk.RefCols {
			if !strings.EqualFold(parent.Def.Columns[ix.Cols[i]].Name, name) {
				match = false
				break
			}
		}
		if match {
			return ix.Name
		}
	}
	return ""
}

func referentialRows(src Source, f filter) [][]types.Value {
	cat := src.Catalog()
	var out [][]types.Value
	eachTable(cat, f, func(t *storage.Table) {
		for i := range t.Def.ForeignKeys {
			fk := &t.Def.ForeignKeys[i]
			out = append(out, []types.Value{str("def"), str(t.Def.DB), str(fk.Name), str("def"), str(fk.RefDB),
				strOrNull(referencedKey(cat, fk)), str("NONE"), str(fk.OnUpdate.Rule()), str(fk.OnDelete.Rule()),
				str(t.Def.Name), str(fk.RefTable)})
		}
	})
	return out
}

// foreignKeyConstraintRows are t's FOREIGN KEY and CHECK rows of
// TABLE_CONSTRAINTS.
func foreignKeyConstraintRows(t *storage.Table) [][]types.Value {
	var out [][]types.Value
	for _, fk := range t.Def.ForeignKeys {
		out = append(out, []types.Value{str("def"), str(t.Def.DB), str(fk.Name), str(t.Def.DB), str(t.Def.Name), str("FOREIGN KEY")})
	}
	for _, ck := range checksOf(t.Def) {
		out = append(out, []types.Value{str("def"), str(t.Def.DB), str(ck.Name), str(t.Def.DB), str(t.Def.Name), str("CHECK")})
	}
	return out
}

// foreignKeyColumnRows are t's foreign keys' rows of KEY_COLUMN_USAGE.
func foreignKeyColumnRows(t *storage.Table) [][]types.Value {
	var out [][]types.Value
	def := t.Def
	for _, fk := range def.ForeignKeys {
		for seq, c := range fk.Cols {
			ref := null
			if seq < len(fk.RefCols) {
				ref = str(fk.RefCols[seq])
			}
			out = append(out, []types.Value{str("def"), str(def.DB), str(fk.Name), str("def"), str(def.DB), str(def.Name),
				str(def.Columns[c].Name), i64(int64(seq + 1)), i64(int64(seq + 1)), str(fk.RefDB), str(fk.RefTable), ref})
		}
	}
	return out
}
