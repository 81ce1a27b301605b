package parse

import (
	"reflect"
	"testing"
)

// A SQL/PSM CREATE keeps its body's ';' (MySQL's parser knows the
// compound statement); everything else still splits at every ';'.
func TestSplitCompound(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   []string
	}{
		{"CREATE PROCEDURE p() BEGIN DECLARE c INT DEFAULT 1; WHILE c < 3 DO SET c = c + 1; END WHILE; END; CALL p()",
			[]string{"CREATE PROCEDURE p() BEGIN DECLARE c INT DEFAULT 1; WHILE c < 3 DO SET c = c + 1; END WHILE; END", "CALL p()"}},
		{"create or replace definer=root procedure p() begin if (select 1) then select if(1,2,3); end if; case 1 when 1 then select case when 1 then 2 end; end case; end; select 1",
			[]string{"create or replace definer=root procedure p() begin if (select 1) then select if(1,2,3); end if; case 1 when 1 then select case when 1 then 2 end; end case; end", "select 1"}},
		{"CREATE PROCEDURE p() BEGIN l: LOOP LEAVE l; END LOOP l; REPEAT SET @a = REPEAT('x', 2); UNTIL 1 END REPEAT; DROP TABLE IF EXISTS t; END; SELECT 2",
			[]string{"CREATE PROCEDURE p() BEGIN l: LOOP LEAVE l; END LOOP l; REPEAT SET @a = REPEAT('x', 2); UNTIL 1 END REPEAT; DROP TABLE IF EXISTS t; END", "SELECT 2"}},
		// A Lua body's words (repeat ... until has no END) are not SQL's.
		{"CREATE PROCEDURE p() LANGUAGE LUA AS $$ repeat x = 1 until true $$; SELECT 3",
			[]string{"CREATE PROCEDURE p() LANGUAGE LUA AS $$ repeat x = 1 until true $$", "SELECT 3"}},
		{"BEGIN; SELECT 'begin; end'; COMMIT", []string{"BEGIN", "SELECT 'begin; end'", "COMMIT"}},
	} {
		got, rest := SplitStatements(tc.script)
		if rest != "" {
			got = append(got, rest) // the last statement has no ';'
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitStatements(%q)\n got %q rest %q\nwant %q", tc.script, got, rest, tc.want)
		}
	}
}
