package psm

import (
	"testing"

	"github.com/plrun/plrun/procs"
)

// FuzzCompile: no body text may panic the compiler; it compiles or fails
// with an error.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"BEGIN DECLARE c INT DEFAULT 1; WHILE c <= 10 DO INSERT INTO t VALUES (c); COMMIT; SET c = c + 1; END WHILE; END",
		"BEGIN DECLARE x INT; DECLARE cur CURSOR FOR SELECT a FROM t; DECLARE CONTINUE HANDLER FOR NOT FOUND SET x = 1; OPEN cur; FETCH cur INTO x; CLOSE cur; END",
		"l: LOOP IF 1 THEN LEAVE l; ELSEIF 2 THEN ITERATE l; ELSE SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'x'; END IF; END LOOP l",
		"BEGIN CASE WHEN 1 THEN SELECT 1 INTO @a; END CASE; GET DIAGNOSTICS CONDITION 1 @m = MESSAGE_TEXT; RESIGNAL; END",
		"BEGIN REPEAT SET @a = @a + 1; UNTIL @a > 3 END REPEAT; RETURN 1; END",
		"BEGIN SIGNAL SQLSTATE '", "BEGIN SET @'", "BEGIN DECLARE `",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		def := &procs.Definition{Name: "p", Body: body, Params: []procs.Param{{Name: "a", Type: "INT"}}}
		Runtime{}.Compile(def)
		CompileFunction(def)
	})
}
