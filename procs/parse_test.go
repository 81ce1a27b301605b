package procs_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/plrun/plrun/procs"
	"github.com/plrun/plrun/sqlerr"
)

func TestParseCreate(t *testing.T) {
	tests := []struct {
		sql       string
		want      procs.Definition
		orReplace bool
		ifNot     bool
	}{
		{
			sql:  "CREATE PROCEDURE p() LANGUAGE LUA AS $$ return $$",
			want: procs.Definition{Name: "p", Language: "LUA", Body: " return ", Delimiter: "$$"},
		},
		{
			sql: "  /* hi */ create or replace procedure `Odd Name`(in a int, OUT b decimal( 12 , 2 ), inout `c` varchar(20), d INT unsigned)\n" +
				"  COMMENT 'it''s' DETERMINISTIC language javascript SQL SECURITY INVOKER READS SQL DATA\nAS $js$\nb = a;\n$js$;  -- done",
			want: procs.Definition{Name: "Odd Name", Language: "JAVASCRIPT", Body: "\nb = a;\n", Delimiter: "$js$",
				Params: []procs.Param{
					{Mode: procs.ModeIn, Name: "a", Type: "INT"},
					{Mode: procs.ModeOut, Name: "b", Type: "DECIMAL(12,2)"},
					{Mode: procs.ModeInOut, Name: "c", Type: "VARCHAR(20)"},
					{Mode: procs.ModeIn, Name: "d", Type: "INT UNSIGNED"},
				}},
			orReplace: true,
		},
		{
			sql: "CREATE DEFINER=`root`@`%` PROCEDURE IF NOT EXISTS q(x ENUM('a','B')) NOT DETERMINISTIC LANGUAGE lua AS $lua$ s = '$$' $lua$",
			want: procs.Definition{Name: "q", Language: "LUA", Body: " s = '$$' ", Delimiter: "$lua$", Definer: "`root`@`%`",
				Params: []procs.Param{{Mode: procs.ModeIn, Name: "x", Type: "ENUM('a','B')"}}},
			ifNot: true,
		},
		{
			sql: "CREATE PROCEDURE r(IN n BIGINT) CONTAINS SQL MODIFIES SQL DATA NO SQL LANGUAGE JS AS $$$$",
			want: procs.Definition{Name: "r", Language: "JAVASCRIPT", Body: "", Delimiter: "$$",
				Params: []procs.Param{{Mode: procs.ModeIn, Name: "n", Type: "BIGINT"}}},
		},
	}
	for _, tt := range tests {
		st, err := procs.ParseCreateStmt(tt.sql)
		if err != nil {
			t.Errorf("%q: %v", tt.sql, err)
			continue
		}
		if !reflect.DeepEqual(*st.Def, tt.want) || st.OrReplace != tt.orReplace || st.IfNotExists != tt.ifNot {
			t.Errorf("%q:\n got %+v or=%v ifnot=%v\nwant %+v", tt.sql, *st.Def, st.OrReplace, st.IfNotExists, tt.want)
		}
		if !procs.IsCreateProcedure(tt.sql) {
			t.Errorf("IsCreateProcedure(%q) = false", tt.sql)
		}
		// SHOW CREATE PROCEDURE round-trips.
		back, _, err := procs.ParseCreate(procs.FormatCreate(st.Def))
		if err != nil || !reflect.DeepEqual(back, st.Def) {
			t.Errorf("round trip of %q: %v\n%+v", procs.FormatCreate(st.Def), err, back)
		}
	}
}

func TestParseCreateErrors(t *testing.T) {
	tests := []struct{ sql, near string }{
		{"", "near '' at line 1"},
		{"CREATE TABLE t (a INT)", "near 'TABLE t (a INT)' at line 1"},
		{"CREATE PROCEDURE p() AS $$ x $$", "near 'AS $$ x $$'"},                        // no LANGUAGE
		{"CREATE PROCEDURE p() LANGUAGE LUA $$ x $$", "near '$$ x $$'"},                 // no AS
		{"CREATE PROCEDURE p() LANGUAGE LUA AS $$ x", "near '$$ x'"},                    // unterminated
		{"CREATE PROCEDURE p() LANGUAGE LUA AS $a$ x $b$", "near '$a$ x $b$'"},          // tags differ
		{"CREATE PROCEDURE p(IN a) LANGUAGE LUA AS $$ $$", "near ') LANGUAGE"},          // no type
		{"CREATE PROCEDURE p(a INT,) LANGUAGE LUA AS $$ $$", "near ') LANGUAGE"},        // trailing comma
		{"CREATE PROCEDURE p(a INT LANGUAGE LUA AS $$ $$", "near '$$ $$'"},              // no ')'
		{"CREATE PROCEDURE p() LANGUAGE LUA AS $$ $$ extra", "near 'extra' at line 1"},  // trailing junk
		{"CREATE PROCEDURE\n`p() LANGUAGE LUA AS $$ $$", "at line 2"},                   // unclosed backquote
		{"CREATE PROCEDURE p() LANGUAGE LUA LANGUAGE JS AS $$ $$", "near 'LANGUAGE JS"}, // twice
		{"CREATE PROCEDURE p(a INT, A INT) LANGUAGE LUA AS $$ $$", "Duplicate parameter: A"},
		{"CREATE PROCEDURE p() COMMENT 'x LANGUAGE LUA AS $$ $$", "near ''x LANGUAGE"},
	}
	for _, tt := range tests {
		_, _, err := procs.ParseCreate(tt.sql)
		e, ok := sqlerr.As(err)
		if !ok || e.Code != sqlerr.ErParse || e.State != "42000" {
			t.Errorf("%q: err = %v, want 1064", tt.sql, err)
			continue
		}
		if !strings.Contains(e.Message, tt.near) {
			t.Errorf("%q: message %q does not contain %q", tt.sql, e.Message, tt.near)
		}
	}
}

func TestIsCreateProcedure(t *testing.T) {
	for sql, want := range map[string]bool{
		"CREATE PROCEDURE p() LANGUAGE LUA AS $$ $$":          true,
		"-- c\n# c\n/* c */ create   OR replace\tprocedure x": true,
		"CREATE DEFINER = CURRENT_USER PROCEDURE x":           true,
		"CREATE TABLE procedure (a int)":                      false,
		"CREATE OR TABLE":                                     false,
		"SELECT 'CREATE PROCEDURE'":                           false,
		"CREATE PROCEDUREX":                                   false,
		"":                                                    false,
	} {
		if got := procs.IsCreateProcedure(sql); got != want {
			t.Errorf("IsCreateProcedure(%q) = %v", sql, got)
		}
	}
}

// FormatCreate picks a dollar tag that does not occur in the body.
func TestFormatCreatePicksSafeTag(t *testing.T) {
	for _, body := range []string{"a = '$$'", "x = '$$' .. '$proc$'", "ends with $", "$proc"} {
		def := &procs.Definition{Name: "p", Language: "LUA", Body: body, Delimiter: "$$"}
		back, _, err := procs.ParseCreate(procs.FormatCreate(def))
		if err != nil || back.Body != body {
			t.Errorf("body %q: %v, got %+v from %s", body, err, back, procs.FormatCreate(def))
		}
	}
}

func TestDefinitionJSONRoundTrip(t *testing.T) {
	def, _, err := procs.ParseCreate("CREATE PROCEDURE p(IN a INT, OUT b DECIMAL(12,2)) LANGUAGE LUA AS $x$ b = a $x$")
	if err != nil {
		t.Fatal(err)
	}
	def.Created, def.Modified = "2026-01-02 03:04:05", "2026-01-02 03:04:06"
	data, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	var back procs.Definition
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(&back, def) {
		t.Fatalf("json round trip: %v %+v", err, back)
	}
}

func FuzzParseCreate(f *testing.F) {
	for _, s := range []string{
		"CREATE PROCEDURE p() LANGUAGE LUA AS $$ $$",
		"CREATE OR REPLACE PROCEDURE IF NOT EXISTS `a``b`(IN a DECIMAL(12,2), OUT b VARCHAR(3)) COMMENT 'x' LANGUAGE JAVASCRIPT AS $js$ b = 'x' $js$;",
		"CREATE DEFINER='u'@'h' PROCEDURE p(x ENUM('a')) LANGUAGE LUA AS $$",
		"create procedure p(a int",
		"/*", "-- ", "$", "CREATE PROCEDURE `", "CREATE PROCEDURE p() COMMENT '\\",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		procs.IsCreateProcedure(sql)
		st, err := procs.ParseCreateStmt(sql)
		if err != nil {
			if e, ok := sqlerr.As(err); !ok || e.Code != sqlerr.ErParse {
				t.Fatalf("error %v is not 1064", err)
			}
			return
		}
		// Whatever parses must print back to itself.
		back, _, err := procs.ParseCreate(procs.FormatCreate(st.Def))
		if err != nil {
			t.Fatalf("FormatCreate output does not parse: %v\n%s", err, procs.FormatCreate(st.Def))
		}
		// BodyLine is where the body started in the text parsed; the
		// printed form lays the statement out anew.
		back.BodyLine = st.Def.BodyLine
		if !reflect.DeepEqual(back, st.Def) {
			t.Fatalf("round trip changed the definition:\n%+v\n%+v", st.Def, back)
		}
	})
}
