package sql_test

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/access"
	"github.com/plrun/plrun/sql/parse"
)

// dispatchSamples is one statement for every case of the session's
// dispatch (exec.go's execParsed), named as the case is: a parse kind or
// a TiDB statement node. TestDispatchClassified fails for a case added
// to the dispatch without a sample here, and for a sample that sql/access
// does not classify: a checked session would be refused it.
var dispatchSamples = map[string][]string{
	"parse.KindLockTables":        {"LOCK TABLES t READ"},
	"parse.KindCreateProc":        {"CREATE PROCEDURE p() SELECT 1", "CREATE PROCEDURE p() LANGUAGE LUA AS $$ x = 1 $$"},
	"parse.KindDropProc":          {"DROP PROCEDURE p"},
	"parse.KindCreateFunc":        {"CREATE FUNCTION f() RETURNS int RETURN 1"},
	"parse.KindDropFunc":          {"DROP FUNCTION IF EXISTS f"},
	"parse.KindCreateTrigger":     {"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET @a = 1"},
	"parse.KindDropTrigger":       {"DROP TRIGGER tr"},
	"parse.KindShowTriggers":      {"SHOW TRIGGERS"},
	"parse.KindShowCreateTrigger": {"SHOW CREATE TRIGGER tr"},
	"parse.KindShowFuncStatus":    {"SHOW FUNCTION STATUS"},
	"parse.KindShowCreateFunc":    {"SHOW CREATE FUNCTION f"},
	"parse.KindAlterSystem":       {"ALTER SYSTEM SET hotspot = ON"},
	"parse.KindSetPersist":        {"SET PERSIST hotspot = ON"},
	"parse.KindResetPersist":      {"RESET PERSIST"},
	"parse.KindCheckpoint":        {"CHECKPOINT"},
	"parse.KindShowEngine":        {"SHOW ENGINE PLRUN STATUS", "SHOW ENGINE INNODB STATUS"},
	"parse.KindShowProcStatus":    {"SHOW PROCEDURE STATUS"},
	"parse.KindLoadProc":          {"LOAD PROCEDURE '/tmp/p.lua'"},
	"parse.KindShowCreateProc":    {"SHOW CREATE PROCEDURE p"},
	"parse.KindDoBlock":           {"DO LANGUAGE LUA $$ x = 1 $$"},
	"*ast.SelectStmt":             {"SELECT * FROM t", "SELECT 1 INTO OUTFILE '/tmp/x'", "SELECT (SELECT a FROM u) FROM t JOIN v ON 1"},
	"*ast.SetOprStmt":             {"SELECT a FROM t UNION SELECT a FROM u"},
	"*ast.InsertStmt":             {"INSERT INTO t VALUES (1)", "REPLACE INTO t SELECT * FROM u", "INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = a + 1"},
	"*ast.UpdateStmt":             {"UPDATE t SET a = 1 WHERE b = 2", "UPDATE t JOIN u ON t.a = u.a SET t.b = u.b"},
	"*ast.DeleteStmt":             {"DELETE FROM t WHERE a = 1", "DELETE t FROM t JOIN u ON t.a = u.a"},
	"*ast.LoadDataStmt":           {"LOAD DATA INFILE '/tmp/x' INTO TABLE t", "LOAD DATA LOCAL INFILE 'x' REPLACE INTO TABLE t"},
	"*ast.BeginStmt":              {"BEGIN"},
	"*ast.CommitStmt":             {"COMMIT"},
	"*ast.RollbackStmt":           {"ROLLBACK"},
	"*ast.SavepointStmt":          {"SAVEPOINT s"},
	"*ast.ReleaseSavepointStmt":   {"RELEASE SAVEPOINT s"},
	"*ast.SetStmt":                {"SET @a = 1", "SET GLOBAL hotspot = ON", "SET autocommit = 0", "SET NAMES utf8mb4"},
	"*ast.UseStmt":                {"USE d"},
	"*ast.ShowStmt":               {"SHOW TABLES", "SHOW DATABASES", "SHOW COLUMNS FROM t", "SHOW CREATE TABLE t", "SHOW CREATE VIEW v", "SHOW INDEX FROM t", "SHOW VARIABLES", "SHOW STATUS", "SHOW PROCESSLIST", "SHOW WARNINGS", "SHOW ERRORS", "SHOW ENGINES", "SHOW CHARSET", "SHOW COLLATION", "SHOW TABLE STATUS", "SHOW CREATE DATABASE d", "SHOW PROCEDURE STATUS WHERE Db = 'd'", "SHOW FUNCTION STATUS WHERE Db = 'd'", "SHOW TRIGGERS WHERE `Table` = 't'", "SHOW GRANTS", "SHOW GRANTS FOR x@'%'"},
	"*ast.ExplainStmt":            {"EXPLAIN SELECT * FROM t"},
	"*ast.CreateTableStmt":        {"CREATE TABLE t (a int)", "CREATE TEMPORARY TABLE t (a int)", "CREATE TABLE t2 LIKE t", "CREATE TABLE t2 AS SELECT * FROM t", "CREATE TABLE c (a int, FOREIGN KEY (a) REFERENCES p (a))"},
	"*ast.DropTableStmt":          {"DROP TABLE t", "DROP TEMPORARY TABLE t", "DROP VIEW v"},
	"*ast.CreateDatabaseStmt":     {"CREATE DATABASE d"},
	"*ast.DropDatabaseStmt":       {"DROP DATABASE d"},
	"*ast.TruncateTableStmt":      {"TRUNCATE t"},
	"*ast.AlterTableStmt":         {"ALTER TABLE t ADD b int", "ALTER TABLE t RENAME TO t2"},
	"*ast.CreateIndexStmt":        {"CREATE INDEX i ON t (a)"},
	"*ast.DropIndexStmt":          {"DROP INDEX i ON t"},
	"*ast.RenameTableStmt":        {"RENAME TABLE t TO t2"},
	"*ast.CreateViewStmt":         {"CREATE VIEW v AS SELECT * FROM t", "CREATE OR REPLACE VIEW v AS SELECT 1"},
	"*ast.CallStmt":               {"CALL p()"},
	"*ast.KillStmt":               {"KILL 7", "KILL QUERY 7"},
	"*ast.DoStmt":                 {"DO 1", "DO (SELECT count(*) FROM t)"},
	"*ast.UnlockTablesStmt":       {"UNLOCK TABLES"},
	"*ast.FlushStmt":              {"FLUSH TABLES", "FLUSH TABLES WITH READ LOCK", "FLUSH STATUS"},
	"*ast.AnalyzeTableStmt":       {"ANALYZE TABLE t"},
	"account statements (ahead)":  {"CREATE USER x", "DROP USER x", "RENAME USER x TO y", "ALTER USER x IDENTIFIED BY 'p'", "SET PASSWORD FOR x = 'p'", "SET PASSWORD = 'p'", "GRANT SELECT ON d.* TO x", "GRANT ALL ON *.* TO x", "REVOKE INSERT ON d.t FROM x", "GRANT EXECUTE ON PROCEDURE d.p TO x", "SHUTDOWN"},
}

// dispatchCases lists the cases of execParsed in exec.go.
func dispatchCases(t *testing.T) []string {
	fset := token.NewFileSet()
	f, err := goparser.ParseFile(fset, "exec.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "execParsed" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			cc, ok := n.(*ast.CaseClause)
			if !ok {
				return true
			}
			for _, e := range cc.List {
				switch x := e.(type) {
				case *ast.SelectorExpr: // parse.KindX
					if id, ok := x.X.(*ast.Ident); ok && id.Name == "parse" {
						cases = append(cases, "parse."+x.Sel.Name)
					}
				case *ast.StarExpr: // *ast.XStmt
					if sel, ok := x.X.(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok && id.Name == "ast" {
							cases = append(cases, "*ast."+sel.Sel.Name)
						}
					}
				}
			}
			return true
		})
	}
	if len(cases) < 40 {
		t.Fatalf("found only %d dispatch cases in exec.go: %v", len(cases), cases)
	}
	return cases
}

func TestDispatchClassified(t *testing.T) {
	for _, c := range dispatchCases(t) {
		samples, ok := dispatchSamples[c]
		if !ok || len(samples) == 0 {
			t.Errorf("dispatch case %s has no sample statement in dispatchSamples: classify it in sql/access and add one", c)
		}
	}
	for c, samples := range dispatchSamples {
		for _, q := range samples {
			p, err := parse.Parse(q, mysql.ModeNone)
			if err != nil {
				t.Errorf("%s: %q: %v", c, q, err)
				continue
			}
			needs := access.Needs(p)
			if needs == nil {
				t.Errorf("%s: %q: nil needs", c, q)
			}
			for _, n := range needs {
				if n.Scope == access.Unknown {
					t.Errorf("%s: %q is not classified (a checked session is refused it)", c, q)
				}
			}
		}
	}
	// and what is not classified is refused, never allowed
	for _, q := range []string{"CREATE ROLE r", "SET ROLE r", "SHOW PLUGINS", "ALTER DATABASE d CHARACTER SET utf8mb4"} {
		p, err := parse.Parse(q, mysql.ModeNone)
		if err != nil {
			continue
		}
		needs := access.Needs(p)
		if len(needs) != 1 || needs[0].Scope != access.Unknown {
			t.Errorf("%q: needs %v, want Unknown", q, needs)
		}
		g := newTestGrants("u", "%")
		g.set("SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, ALTER, SUPER ON *.*")
		if _, denied := access.Check(g, needs, nil); !denied {
			t.Errorf("%q: an unclassified statement was allowed", q)
		}
		g.set("ALL ON *.*")
		if _, denied := access.Check(g, needs, nil); denied {
			t.Errorf("%q: refused to ALL ON *.*", q)
		}
	}
}
