package infoschema

import "github.com/plrun/plrun/types"

// TRIGGERS is empty: plrun has no triggers (CREATE TRIGGER is refused),
// and tools such as mariadb-dump ask it for every table they dump.
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
	}, rows: func(Source, filter) [][]types.Value { return nil }})
}
