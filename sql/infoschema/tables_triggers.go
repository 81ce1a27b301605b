package infoschema

import (
	"time"

	"github.com/plrun/plrun/types"
)

// TRIGGERS: every trigger, by database in firing order, as MariaDB shows
// them (tools such as mariadb-dump read their triggers here).
func init() {
	register(&table{name: "TRIGGERS", cols: []column{
		{"TRIGGER_CATALOG", varchar(512), true}, {"TRIGGER_SCHEMA", varchar(64), true}, {"TRIGGER_NAME", varchar(64), true},
		{"EVENT_MANIPULATION", varchar(6), true}, {"EVENT_OBJECT_CATALOG", varchar(512), true},
		{"EVENT_OBJECT_SCHEMA", varchar(64), true}, {"EVENT_OBJECT_TABLE", varchar(64), true}, {"ACTION_ORDER", bigint(4), true},
		{"ACTION_CONDITION", longtext, false}, {"ACTION_STATEMENT", longtext, false}, {"ACTION_ORIENTATION", varchar(9), true},
		{"ACTION_TIMING", varchar(6), true}, {"ACTION_REFERENCE_OLD_TABLE", varchar(64), false},
		{"ACTION_REFERENCE_NEW_TABLE", varchar(64), false}, {"ACTION_REFERENCE_OLD_ROW", varchar(3), true},
		{"ACTION_REFERENCE_NEW_ROW", varchar(3), true}, {"CREATED", types.ColType{Base: types.TDatetime, Scale: 2}, false},
		{"SQL_MODE", varchar(8192), true}, {"DEFINER", varchar(384), false}, {"CHARACTER_SET_CLIENT", varchar(32), true},
		{"COLLATION_CONNECTION", varchar(64), true}, {"DATABASE_COLLATION", varchar(64), true},
	}, rows: triggersRows, schemaCol: "TRIGGER_SCHEMA", nameCol: "TRIGGER_NAME"})
}

func triggersRows(src Source, f filter) [][]types.Value {
	pc := src.Procs()
	if pc == nil {
		return nil
	}
	var out [][]types.Value
	for _, db := range src.Catalog().Databases() {
		if !f.keeps(db, "") {
			continue
		}
		for _, t := range pc.ListTriggersIn(db) {
			if !f.keeps(db, t.Def.Name) {
				continue
			}
			created := null
			if c, err := time.Parse("2006-01-02 15:04:05.00", t.Created); err == nil {
				created = types.TimeValue(c)
			}
			out = append(out, []types.Value{str("def"), str(db), str(t.Def.Name), str(t.Def.Event), str("def"), str(db), str(t.Def.Table),
				i64(int64(pc.ActionOrder(t))), null, str(t.Def.Body), str("ROW"), str(t.Def.Timing), null, null, str("OLD"), str("NEW"),
				created, str(t.SQLMode), str(t.Definer), str("utf8mb4"), str("utf8mb4_general_ci"), str("utf8mb4_general_ci")})
		}
	}
	return out
}
