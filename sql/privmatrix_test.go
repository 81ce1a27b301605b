package sql_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
	"github.com/plrun/plrun/sql/privilege"
	"github.com/plrun/plrun/sqlerr"
)

// matrixStmts are statements that each need exactly one privilege, and
// the error an account without it gets (MariaDB's: 1142 for a table,
// 1044 for a database, 1227 for a global privilege, 1370 for a routine).
var matrixStmts = []struct {
	need   privilege.Priv
	q      string
	denied uint16
}{
	{privilege.Select, "SELECT * FROM t", sqlerr.ErTableAccessDenied},
	{privilege.Insert, "INSERT INTO t VALUES (100, 1)", sqlerr.ErTableAccessDenied},
	{privilege.Update, "UPDATE t SET b = 2", sqlerr.ErTableAccessDenied},
	{privilege.Delete, "DELETE FROM t", sqlerr.ErTableAccessDenied},
	{privilege.Create, "CREATE TABLE newt (a int)", sqlerr.ErTableAccessDenied},
	{privilege.Drop, "DROP TABLE dropme", sqlerr.ErTableAccessDenied},
	{privilege.Drop, "TRUNCATE TABLE t2", sqlerr.ErTableAccessDenied},
	{privilege.Alter, "ALTER TABLE t2 ADD COLUMN c int", sqlerr.ErTableAccessDenied},
	{privilege.Index, "CREATE INDEX ib ON t (b)", sqlerr.ErTableAccessDenied},
	{privilege.Trigger, "CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW SET @x = 1", sqlerr.ErTableAccessDenied},
	{privilege.CreateView, "CREATE VIEW v AS SELECT 1 AS one", sqlerr.ErTableAccessDenied},
	{privilege.Execute, "CALL p()", sqlerr.ErProcAccessDenied},
	{privilege.Execute, "SELECT f()", sqlerr.ErProcAccessDenied},
	{privilege.CreateRoutine, "CREATE PROCEDURE q() SELECT 1", sqlerr.ErDBAccessDenied},
	{privilege.AlterRoutine, "DROP PROCEDURE p2", sqlerr.ErProcAccessDenied},
	{privilege.CreateTmpTable, "CREATE TEMPORARY TABLE tmp (a int)", sqlerr.ErDBAccessDenied},
	{privilege.Super, "SET GLOBAL hotspot = ON", sqlerr.ErSpecificAccessDenied},
	{privilege.Super, "ALTER SYSTEM SET hotspot = OFF", sqlerr.ErSpecificAccessDenied},
	{privilege.Super, "SET @@PERSIST.hotspot = ON", sqlerr.ErSpecificAccessDenied},
	{privilege.Reload, "FLUSH TABLES", sqlerr.ErSpecificAccessDenied},
	{privilege.Reload, "CHECKPOINT", sqlerr.ErSpecificAccessDenied},
	{privilege.File, "SELECT 1 INTO OUTFILE '$FILES/out.txt'", sqlerr.ErSpecificAccessDenied},
}

// levelsOf are the levels a privilege may be granted at.
func levelsOf(p privilege.Priv) []string {
	switch p {
	case privilege.Select, privilege.Insert, privilege.Update, privilege.Delete, privilege.Drop,
		privilege.Alter, privilege.Index, privilege.Trigger:
		return []string{"*.*", "m.*", "m.TABLE"}
	case privilege.Execute, privilege.CreateRoutine, privilege.AlterRoutine, privilege.CreateTmpTable,
		// a table-level grant names an existing table: not the one CREATE
		// TABLE or CREATE VIEW makes
		privilege.Create, privilege.CreateView:
		return []string{"*.*", "m.*"}
	}
	return []string{"*.*"}
}

// TestPrivilegeMatrix: an account holding only one privilege, at global,
// database or table level, can run exactly the statements that need it,
// and gets the statement's access error for every other.
func TestPrivilegeMatrix(t *testing.T) {
	ctx := context.Background()
	privs := map[privilege.Priv]bool{}
	for _, s := range matrixStmts {
		privs[s.need] = true
	}
	for p := range privs {
		for _, level := range levelsOf(p) {
			t.Run(strings.ReplaceAll(p.String(), " ", "_")+"@"+level, func(t *testing.T) {
				dir := t.TempDir()
				e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: filepath.Join(dir, "data")})
				if err != nil {
					t.Fatal(err)
				}
				defer e.Close()
				op := e.NewSession()
				defer op.Close()
				if _, err := op.ExecMulti(ctx, `CREATE DATABASE m; USE m;
					CREATE TABLE t (a int PRIMARY KEY, b int); INSERT INTO t VALUES (1, 1);
					CREATE TABLE t2 (a int); CREATE TABLE dropme (a int);
					CREATE PROCEDURE p() SELECT 1; CREATE PROCEDURE p2() SELECT 2;
					CREATE FUNCTION f() RETURNS int RETURN 7`); err != nil {
					t.Fatal(err)
				}
				var grants []string
				if level == "m.TABLE" {
					for _, tb := range []string{"t", "t2", "dropme"} {
						grants = append(grants, p.String()+" ON m."+tb)
					}
				} else {
					grants = append(grants, p.String()+" ON "+level)
				}
				s := limitedSession(t, e, op, "u", grants...)
				if _, err := s.Exec(ctx, "USE m", nil); err != nil {
					t.Fatalf("USE m with %s ON %s: %v", p, level, err)
				}
				for _, st := range matrixStmts {
					q := strings.ReplaceAll(st.q, "$FILES", dir)
					_, err := s.Exec(ctx, q, nil)
					if st.need == p {
						if err != nil {
							t.Errorf("%s ON %s: %q refused: %v", p, level, q, err)
						}
						continue
					}
					se, ok := sqlerr.As(err)
					if !ok || se.Code != st.denied {
						t.Errorf("%s ON %s: %q (needs %s): got %v, want error %d", p, level, q, st.need, err, st.denied)
					}
				}
			})
		}
	}
}
