package procs_test

import (
	"reflect"
	"testing"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

func TestParseCreateFunction(t *testing.T) {
	tests := []struct {
		sql  string
		want procs.Definition
	}{
		{
			sql: "CREATE FUNCTION add_nos(a INT, b INT) RETURNS INT LANGUAGE JAVASCRIPT AS $$ return a + b $$",
			want: procs.Definition{Name: "add_nos", Language: "JAVASCRIPT", Body: " return a + b ", Delimiter: "$$",
				Params: []procs.Param{{Name: "a", Type: "INT"}, {Name: "b", Type: "INT"}},
				Func:   &procs.FunctionDef{Returns: "INT"}},
		},
		{
			sql: "create or replace definer = root@localhost function if not exists `d`.f(in x decimal( 12 , 2 )) " +
				"returns varchar( 20 ) character set utf8mb4 deterministic no sql comment 'it''s' return concat(x, '!');",
			want: procs.Definition{Name: "`d`.`f`", Language: "SQL", Body: "return concat(x, '!')",
				Params: []procs.Param{{Name: "x", Type: "DECIMAL(12,2)"}},
				Func: &procs.FunctionDef{Returns: "VARCHAR(20) CHARSET UTF8MB4", Comment: "it's",
					Characteristics: []string{"DETERMINISTIC", "NO SQL", "COMMENT 'it''s'"}}},
		},
		{
			sql: "CREATE FUNCTION b() RETURNS INT READS SQL DATA BEGIN RETURN 1; END",
			want: procs.Definition{Name: "b", Language: "SQL", Body: "BEGIN RETURN 1; END",
				Func: &procs.FunctionDef{Returns: "INT", Characteristics: []string{"READS SQL DATA"}}},
		},
	}
	for _, tc := range tests {
		st, err := procs.ParseCreateFunction(tc.sql)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		if !reflect.DeepEqual(*st.Def, tc.want) {
			t.Errorf("%s:\n got %+v %+v\nwant %+v %+v", tc.sql, *st.Def, *st.Def.Func, tc.want, *tc.want.Func)
		}
		// SHOW CREATE FUNCTION's text reads back to the same definition.
		back, err := procs.ParseCreateFunction(procs.FormatCreateFunction(st.Def, st.Def.Func.Returns))
		if err != nil {
			t.Fatalf("%s: formatted text does not parse: %v", tc.sql, err)
		}
		want := *st.Def
		if want.Language == procs.LanguageSQL {
			want.Delimiter = ""
		}
		if want.Name[0] == '`' {
			// A db.name the catalog stores apart: SHOW CREATE prints the name alone.
			back.Def.Name = want.Name
		}
		if !reflect.DeepEqual(*back.Def, want) {
			t.Errorf("%s: read back\n got %+v %+v\nwant %+v %+v", tc.sql, *back.Def, *back.Def.Func, want, *want.Func)
		}
	}
}

func TestParseCreateFunctionErrors(t *testing.T) {
	for sql, code := range map[string]uint16{
		"CREATE FUNCTION f() LANGUAGE LUA AS $$ return 1 $$":           sqlerr.ErParse, // no RETURNS
		"CREATE FUNCTION f() RETURNS INT":                              sqlerr.ErParse, // no body
		"CREATE FUNCTION f() RETURNS INT RETURN":                       sqlerr.ErParse,
		"CREATE FUNCTION f() RETURNS INT LANGUAGE LUA RETURN 1":        sqlerr.ErParse,
		"CREATE FUNCTION f(OUT a INT) RETURNS INT RETURN 1":            sqlerr.ErNotSupportedYet,
		"CREATE FUNCTION f(a INT, a INT) RETURNS INT RETURN 1":         sqlerr.ErParse,
		"CREATE FUNCTION f() RETURNS INT LANGUAGE LUA AS $$ x $$ junk": sqlerr.ErParse,
		"CREATE FUNCTION f() RETURNS (INT) RETURN 1":                   sqlerr.ErParse,
	} {
		_, err := procs.ParseCreateFunction(sql)
		e, ok := sqlerr.As(err)
		if !ok || e.Code != code {
			t.Errorf("%s: got %v, want error %d", sql, err, code)
		}
	}
}
