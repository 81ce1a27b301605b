package sql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plrun/plrun/sql"
	"github.com/plrun/plrun/sql/exec"
)

// secretValue is what a limited account must never see.
const secretValue = "TOPSECRET-42"

// limitedAttacks are statements a limited account sends to read or change
// a table it holds no grant on (vault.secret), directly and through
// everything that runs statements on its behalf: subqueries, views,
// CTEs, routines of its own (which run with its rights), stored
// functions' RETURN expressions, triggers, DO blocks in Lua and
// JavaScript, variables, SHOW and information_schema.
var limitedAttacks = []string{
	"SELECT * FROM vault.secret",
	"SELECT s FROM vault.secret WHERE id = 1",
	"SELECT (SELECT s FROM vault.secret LIMIT 1)",
	"SELECT * FROM play.t WHERE EXISTS (SELECT 1 FROM vault.secret)",
	"WITH x AS (SELECT * FROM vault.secret) SELECT * FROM x",
	"SELECT id, s FROM play.t UNION SELECT id, s FROM vault.secret",
	"SELECT * FROM (SELECT * FROM vault.secret) d",
	"SELECT * FROM play.t JOIN vault.secret USING (id)",
	"CREATE VIEW play.v AS SELECT * FROM vault.secret",
	"SELECT * FROM play.v",
	"CREATE TABLE play.c AS SELECT * FROM vault.secret",
	"CREATE TABLE play.l LIKE vault.secret",
	"INSERT INTO play.t SELECT id + 10, s FROM vault.secret",
	"SELECT * FROM play.t",
	"UPDATE vault.secret SET s = 'x'",
	"UPDATE play.t, vault.secret SET play.t.s = vault.secret.s",
	"UPDATE play.t JOIN vault.secret ON 1 = 1 SET vault.secret.s = 'x'",
	"UPDATE play.t SET s = (SELECT s FROM vault.secret LIMIT 1)",
	"DELETE FROM vault.secret",
	"DELETE vault.secret FROM vault.secret JOIN play.t ON 1 = 1",
	"DELETE play.t FROM play.t JOIN vault.secret ON play.t.id = vault.secret.id",
	"REPLACE INTO vault.secret VALUES (1, 'x')",
	"INSERT INTO vault.secret VALUES (2, 'x')",
	"INSERT INTO play.t VALUES (1, 'a') ON DUPLICATE KEY UPDATE s = (SELECT s FROM vault.secret LIMIT 1)",
	"TRUNCATE vault.secret",
	"DROP TABLE vault.secret",
	"DROP DATABASE vault",
	"ALTER TABLE vault.secret ADD z int",
	"ALTER TABLE vault.secret RENAME play.stolen",
	"RENAME TABLE vault.secret TO play.stolen",
	"CREATE INDEX i ON vault.secret (s)",
	"SHOW CREATE TABLE vault.secret",
	"SHOW COLUMNS FROM vault.secret",
	"SHOW INDEX FROM vault.secret",
	"SHOW TABLES FROM vault",
	"SHOW TABLE STATUS FROM vault",
	"SHOW DATABASES",
	"SELECT * FROM information_schema.TABLES WHERE table_schema = 'vault'",
	"SELECT * FROM information_schema.COLUMNS WHERE table_schema = 'vault'",
	"SELECT * FROM information_schema.STATISTICS WHERE table_schema = 'vault'",
	"SELECT * FROM information_schema.SCHEMATA",
	"SELECT * FROM information_schema.ROUTINES",
	"SELECT * FROM information_schema.TRIGGERS",
	"SELECT * FROM information_schema.VIEWS",
	"EXPLAIN SELECT * FROM vault.secret",
	"DO (SELECT s FROM vault.secret)",
	"SET @x = (SELECT s FROM vault.secret LIMIT 1)",
	"SELECT s INTO @y FROM vault.secret",
	"SELECT @x, @y",
	"LOCK TABLES vault.secret READ",
	"USE vault",
	"USE play",
	"CALL vault.reveal()",
	"SELECT vault.reveal_f()",
	"SHOW CREATE PROCEDURE vault.reveal",
	"SHOW CREATE FUNCTION vault.reveal_f",
	"SHOW PROCEDURE STATUS",
	"SHOW FUNCTION STATUS",
	"SHOW TRIGGERS FROM vault",
	"CREATE PROCEDURE steal() SELECT * FROM vault.secret",
	"CALL play.steal()",
	"CREATE PROCEDURE steal2() BEGIN DECLARE v varchar(40); SET v = (SELECT s FROM vault.secret LIMIT 1); SELECT v; END",
	"CALL play.steal2()",
	"CREATE PROCEDURE steal3() BEGIN DECLARE v varchar(40); SELECT s INTO v FROM vault.secret LIMIT 1; SELECT v; END",
	"CALL play.steal3()",
	"CREATE PROCEDURE steal4() BEGIN IF (SELECT count(*) FROM vault.secret) > 0 THEN SELECT 'yes'; END IF; END",
	"CALL play.steal4()",
	"CREATE PROCEDURE lsteal() LANGUAGE LUA AS $$ session:runSql(\"INSERT INTO play.t SELECT 99, s FROM vault.secret\") $$",
	"CALL play.lsteal()",
	"CREATE FUNCTION sf() RETURNS varchar(40) RETURN (SELECT s FROM vault.secret LIMIT 1)",
	"SELECT play.sf()",
	"CREATE FUNCTION sf2() RETURNS varchar(40) BEGIN RETURN (SELECT s FROM vault.secret LIMIT 1); END",
	"SELECT play.sf2()",
	"CREATE FUNCTION lf() RETURNS varchar(40) LANGUAGE LUA AS $$ return session:runSql(\"SELECT s FROM vault.secret\"):fetchOne()[1] $$",
	"SELECT play.lf()",
	"CREATE TRIGGER play.tg BEFORE INSERT ON play.t FOR EACH ROW SET NEW.s = (SELECT s FROM vault.secret LIMIT 1)",
	"INSERT INTO play.t VALUES (50, 'n')",
	"CREATE TRIGGER play.tg2 AFTER INSERT ON play.t FOR EACH ROW DELETE FROM vault.secret",
	"INSERT INTO play.t VALUES (51, 'n')",
	"CREATE TRIGGER vault.tg3 BEFORE INSERT ON vault.secret FOR EACH ROW SET NEW.s = 'x'",
	"DROP TRIGGER vault.guard",
	"SHOW CREATE TRIGGER vault.guard",
	"SELECT * FROM play.t",
	"DO LANGUAGE LUA $$ result = session:runSql(\"SELECT s FROM vault.secret\"):fetchOne()[1] $$",
	"DO LANGUAGE JAVASCRIPT $$ session.runSql(\"DELETE FROM vault.secret\") $$",
	"SET GLOBAL secure_file_priv = ''",
	"SELECT * FROM vault.secret INTO OUTFILE '/tmp/plrun-stolen.txt'",
	"LOAD DATA INFILE '/etc/passwd' INTO TABLE play.t",
	"CREATE DEFINER = root@localhost PROCEDURE asroot() SELECT * FROM vault.secret",
	"CALL play.asroot()",
	"SELECT * FROM play.t",
}

// TestLimitedAccountAttacks: nothing a limited account sends reads the
// secret table (its value is in no reply, no error, no warning) or
// changes it.
func TestLimitedAccountAttacks(t *testing.T) {
	e, op := newHostileSession(t)
	ctx := context.Background()
	if _, err := op.ExecMulti(ctx, `CREATE DATABASE vault; CREATE DATABASE play;
		CREATE TABLE vault.secret (id int PRIMARY KEY, s varchar(40));
		INSERT INTO vault.secret VALUES (1, '`+secretValue+`');
		CREATE TABLE play.t (id int PRIMARY KEY, s varchar(40));
		USE vault;
		CREATE PROCEDURE reveal() SELECT * FROM vault.secret;
		CREATE FUNCTION reveal_f() RETURNS varchar(40) RETURN (SELECT s FROM vault.secret LIMIT 1);
		CREATE TRIGGER guard BEFORE DELETE ON vault.secret FOR EACH ROW SET @guard = OLD.s`); err != nil {
		t.Fatal(err)
	}
	s := limitedSession(t, e, op, "u", "ALL ON play.*")
	for _, q := range limitedAttacks {
		r, err := s.Exec(ctx, q, nil)
		if testing.Verbose() {
			t.Logf("%s -> %v", q, err)
		}
		if leak := leaked(r, err); leak != "" {
			t.Errorf("%q leaked the secret: %s", q, leak)
		}
		// warnings too
		w, _ := s.Exec(ctx, "SHOW WARNINGS", nil)
		if leak := leaked(w, nil); leak != "" {
			t.Errorf("%q leaked the secret in a warning: %s", q, leak)
		}
	}
	assertSecretIntact(t, op)
}

func assertSecretIntact(t *testing.T, op *sql.Session) {
	t.Helper()
	r, err := op.Exec(context.Background(), "SELECT id, s FROM vault.secret", nil)
	if err != nil {
		t.Fatalf("the secret table is gone: %v", err)
	}
	if len(r.Rows) != 1 || r.Rows[0][1].String() != secretValue || len(r.Columns) != 2 {
		t.Fatalf("the secret table changed: %v", r.Rows)
	}
}

// leaked is where the secret shows in a reply, "" if nowhere.
func leaked(r *exec.Result, err error) string {
	if err != nil && strings.Contains(err.Error(), secretValue) {
		return "error " + err.Error()
	}
	if r == nil {
		return ""
	}
	var all []*exec.Result
	all = append(all, r)
	all = append(all, r.Sets...)
	for _, set := range all {
		for _, row := range set.Rows {
			for _, v := range row {
				if strings.Contains(v.String(), secretValue) {
					return fmt.Sprintf("row %v", row)
				}
			}
		}
		for _, n := range set.Notes {
			if strings.Contains(n.Message, secretValue) {
				return "note " + n.Message
			}
		}
	}
	return ""
}
