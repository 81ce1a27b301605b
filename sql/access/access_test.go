package access

import (
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/plrun/plrun/sql/parse"
	"github.com/plrun/plrun/sql/privilege"
)

var scopeNames = map[Scope]string{OnTable: "table", OnColumn: "column", OnDatabase: "db", AnyInDatabase: "any-in-db",
	AnyOnTable: "any-on-table", Global: "global", AnyGlobal: "any-global", OnServer: "server", OnRoutine: "routine",
	SeeRoutine: "see-routine", OnTriggerTable: "trigger-table", Unknown: "unknown"}

func render(needs []Need) string {
	var out []string
	for _, n := range needs {
		s := scopeNames[n.Scope] + ":" + n.Priv.String()
		if n.DB != "" || n.Name != "" {
			s += " " + n.DB + "." + strings.TrimPrefix(n.Name, selfPrefix)
		}
		if n.Column != "" {
			s += "(" + n.Column + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// TestNeeds pins what statements need (the privilege table of README's
// "Accounts and privileges").
func TestNeeds(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"SELECT * FROM t JOIN d.u ON 1 WHERE a IN (SELECT a FROM v)", "table:SELECT .t; table:SELECT d.u; table:SELECT .v"},
		{"WITH c AS (SELECT * FROM t) SELECT * FROM c", "table:SELECT .t"},
		{"SELECT * FROM information_schema.TABLES", ""},
		{"INSERT INTO t SELECT * FROM u", "table:INSERT .t; table:SELECT .u"},
		{"INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE b = b + 1", "table:INSERT, UPDATE .t; column:SELECT .t(b)"},
		{"REPLACE INTO t VALUES (1)", "table:INSERT, DELETE .t"},
		{"UPDATE t SET b = 1", "table:UPDATE .t"},
		{"UPDATE t SET b = 1 WHERE a = 2", "table:UPDATE .t; column:SELECT .t(a)"},
		{"UPDATE t JOIN u ON t.a = u.a SET t.b = 1", "table:SELECT .u; table:UPDATE .t"},
		{"DELETE FROM t WHERE a IN (SELECT a FROM u)", "table:DELETE .t; table:SELECT .u; column:SELECT .t(a)"},
		{"DELETE t FROM t JOIN u ON t.a = u.a", "table:SELECT .u; table:DELETE .t"},
		{"LOAD DATA INFILE 'f' INTO TABLE t", "server:FILE; table:INSERT .t"},
		{"LOAD DATA LOCAL INFILE 'f' INTO TABLE t", "table:INSERT .t"},
		{"SELECT * FROM t INTO OUTFILE 'x'", "table:SELECT .t; global:FILE"},
		{"TRUNCATE t", "table:DROP .t"},
		{"RENAME TABLE a TO b", "table:DROP, ALTER .a; table:INSERT, CREATE .b"},
		{"ALTER TABLE a RENAME TO b", "table:DROP, ALTER .a; table:INSERT, CREATE .b"},
		{"CREATE TABLE n AS SELECT * FROM t", "table:INSERT, CREATE .n; table:SELECT .t"},
		{"CREATE TABLE c (a int, FOREIGN KEY (a) REFERENCES p (a))", "table:CREATE .c; table:REFERENCES .p"},
		{"CREATE TEMPORARY TABLE x (a int)", "db:CREATE TEMPORARY TABLES"},
		{"CREATE OR REPLACE VIEW v AS SELECT * FROM t", "table:DROP, CREATE VIEW .v; table:SELECT .t"},
		{"CREATE INDEX i ON t (a)", "table:INDEX .t"},
		{"CREATE DATABASE d", "db:CREATE d."},
		{"USE d", "any-in-db: d."},
		{"CALL d.p(1)", "routine:EXECUTE d.p"},
		{"DROP PROCEDURE IF EXISTS d.p", "routine:ALTER ROUTINE d.p"},
		{"CREATE DEFINER = `x`@`%` PROCEDURE p() SELECT 1", "db:CREATE ROUTINE; global:SUPER .x@%"},
		{"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET @a = 1", "table:TRIGGER .t"},
		{"DROP TRIGGER d.tr", "trigger-table:TRIGGER d.tr"},
		{"LOCK TABLES t READ, d.u WRITE", "table:SELECT .t; db:LOCK TABLES; table:SELECT d.u; db:LOCK TABLES d."},
		{"SET GLOBAL hotspot = ON", "global:SUPER"},
		{"SET hotspot = ON", "global:SUPER"},
		{"SET autocommit = 0", ""},
		{"SET @@PERSIST.hotspot = ON", "global:SUPER"},
		{"SET @@persist_only.hotspot = ON", "global:SUPER"},
		{"ALTER SYSTEM SET hotspot = ON", "global:SUPER"},
		{"FLUSH TABLES", "global:RELOAD"},
		{"CHECKPOINT", "global:RELOAD"},
		{"SHOW CREATE TABLE t", "any-on-table: .t"},
		{"SHOW COLUMNS FROM t IN d", "any-on-table: d.t"},
		{"SHOW INDEX FROM d.t", "any-on-table: d.t"},
		{"GRANT SELECT, INSERT ON d.* TO x", "db:SELECT, INSERT, GRANT OPTION d."},
		{"GRANT ALL ON *.* TO x", "server:" + (privilege.All | privilege.GrantOption).String()},
		{"CREATE USER x", "global:CREATE USER"},
		{"EXPLAIN SELECT * FROM t", "table:SELECT .t"},
		{"DO (SELECT 1 FROM t)", "table:SELECT .t"},
		{"CREATE ROLE r", "unknown:"},
	} {
		p, err := parse.Parse(c.q, mysql.ModeNone)
		if err != nil {
			t.Fatalf("%q: %v", c.q, err)
		}
		if got := render(Needs(p)); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.q, got, c.want)
		}
	}
}

// TestMariaNames: privileges missing are listed in MariaDB's order.
func TestMariaNames(t *testing.T) {
	if got := mariaNames(privilege.Create | privilege.Insert); got != "INSERT, CREATE" {
		t.Errorf("got %q", got)
	}
	if got := mariaNames(privilege.Alter | privilege.Drop); got != "DROP, ALTER" {
		t.Errorf("got %q", got)
	}
	if got := mariaNames(privilege.GrantOption | privilege.Select); got != "SELECT, GRANT" {
		t.Errorf("got %q", got)
	}
	for bit := privilege.Priv(1); bit <= privilege.All|privilege.GrantOption && bit != 0; bit <<= 1 {
		if bit&(privilege.All|privilege.GrantOption) != 0 && mariaNames(bit) == "" {
			t.Errorf("privilege %s has no MariaDB name", bit)
		}
	}
}
