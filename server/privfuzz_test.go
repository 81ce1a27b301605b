package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"log/slog"
	"sync"
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/plrun/plrun/engine"
	"github.com/plrun/plrun/runtime/builtin"
)

// The fuzz and bad-input commands again, from a limited account: one
// holding every privilege on database play and none on vault, whose
// table secret holds limitedSecret. Nothing it sends may bring the secret
// into a reply or change the table.

const limitedSecret = "VAULT-SECRET-7"

var (
	limitedOnce   sync.Once
	limitedEngine *engine.Engine
)

// limitedFuzzEngine is fuzzEngine's twin with the secret seeded.
func limitedFuzzEngine(tb testing.TB) *engine.Engine {
	limitedOnce.Do(func() {
		e, err := engine.Open(engine.Config{Runtimes: builtin.Runtimes(), Dir: tb.TempDir(), Settings: map[string]string{
			"secure_file_priv": "NULL", "max_execution_time": "200", "innodb_lock_wait_timeout": "1",
		}})
		if err != nil {
			tb.Fatal(err)
		}
		s := e.NewSession()
		defer s.Close()
		if _, err := s.ExecMulti(context.Background(), `CREATE DATABASE vault; CREATE DATABASE play;
			CREATE TABLE vault.secret (id int PRIMARY KEY, s varchar(40));
			INSERT INTO vault.secret VALUES (1, '`+limitedSecret+`');
			CREATE TABLE play.t (id int PRIMARY KEY, s varchar(40));
			USE vault; CREATE PROCEDURE reveal() SELECT * FROM vault.secret;
			CREATE USER lim@'%' IDENTIFIED BY 'lp'; GRANT ALL ON play.* TO lim@'%'`); err != nil {
			tb.Fatal(err)
		}
		limitedEngine = e
	})
	return limitedEngine
}

// recordingConn is a scriptConn that keeps what the server wrote.
type recordingConn struct {
	*scriptConn
	out bytes.Buffer
}

func (c *recordingConn) Write(b []byte) (int, error) { return c.out.Write(b) }

// newLimitedConn is a connection past its handshake as the limited
// account, recording its replies.
func newLimitedConn(srv *Server, script []byte) (*conn, *recordingConn) {
	rc := &recordingConn{scriptConn: newScriptConn(script)}
	c := newConn(srv, rc)
	c.salt = mysql.RandomBuf(20)
	c.wire = &wire{packetConn: newPacketConn(c.sock), capability: serverCapabilities, user: "lim"}
	c.session.SetClient("lim", "127.0.0.1:40000")
	c.session.SetAccount(srv.cfg.Engine.Accounts().GrantsFor("lim", "%"))
	return c, rc
}

// secretIntact fails unless vault.secret still holds exactly its row.
func secretIntact(t *testing.T, e *engine.Engine) {
	t.Helper()
	s := e.NewSession()
	defer s.Close()
	r, err := s.Exec(context.Background(), "SELECT id, s FROM vault.secret", nil)
	if err != nil || len(r.Rows) != 1 || r.Rows[0][1].String() != limitedSecret {
		t.Fatalf("vault.secret changed: %v %v", r, err)
	}
}

// limitedSeeds are command series a limited account sends at the secret.
func limitedSeeds() [][]byte {
	seed := func(cmds ...[]byte) []byte {
		var b []byte
		for _, c := range cmds {
			b = binary.LittleEndian.AppendUint16(b, uint16(len(c)))
			b = append(b, c...)
		}
		return b
	}
	cmd := func(c byte, data string) []byte { return append([]byte{c}, data...) }
	q := func(s string) []byte { return cmd(mysql.COM_QUERY, s) }
	execute := func(id byte) []byte { return []byte{mysql.COM_STMT_EXECUTE, id, 0, 0, 0, 0, 1, 0, 0, 0} }
	return [][]byte{
		seed(q("SELECT * FROM vault.secret"), q("SELECT (SELECT s FROM vault.secret)"), q("SELECT * FROM play.t UNION SELECT * FROM vault.secret")),
		seed(cmd(mysql.COM_STMT_PREPARE, "SELECT s FROM vault.secret"), execute(1)),
		seed(cmd(mysql.COM_STMT_PREPARE, "SELECT s FROM play.t"), execute(1), cmd(mysql.COM_STMT_PREPARE, "DELETE FROM vault.secret"), execute(2)),
		seed(cmd(mysql.COM_INIT_DB, "vault"), cmd(mysql.COM_FIELD_LIST, "secret\x00%"), q("SELECT * FROM secret")),
		seed(cmd(mysql.COM_INIT_DB, "play"), cmd(mysql.COM_FIELD_LIST, "../vault/secret\x00")),
		seed(q("CALL vault.reveal()"), q("USE play"), q("CREATE PROCEDURE p() SELECT * FROM vault.secret"), q("CALL play.p()")),
		seed(q("UPDATE vault.secret SET s = 'x'"), q("DELETE FROM vault.secret"), q("DROP TABLE vault.secret"), q("TRUNCATE vault.secret"),
			q("RENAME TABLE vault.secret TO play.x"), q("ALTER TABLE vault.secret ADD c int"), q("DROP DATABASE vault")),
		seed(q("SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'vault'"), q("SHOW TABLES FROM vault"), q("SHOW CREATE TABLE vault.secret")),
		seed(q("SET GLOBAL secure_file_priv = ''"), q("SELECT * FROM vault.secret INTO OUTFILE '/tmp/x'")),
		seed(q("DO LANGUAGE LUA $$ result = session:runSql(\"SELECT s FROM vault.secret\"):fetchOne()[1] $$")),
		seed(q("BEGIN; SELECT * FROM vault.secret; COMMIT"), cmd(mysql.COM_SET_OPTION, "\x00\x00"), q("SELECT 1; SELECT s FROM vault.secret")),
		seed(cmd(mysql.COM_CHANGE_USER, "root\x00\x14abcdefghijklmnopqrst\x00vault\x00\x2d\x00mysql_native_password\x00"), q("SELECT * FROM vault.secret")),
		seed(cmd(mysql.COM_RESET_CONNECTION, ""), q("SELECT * FROM vault.secret"), cmd(mysql.COM_PROCESS_KILL, "\x01\x00\x00\x00")),
	}
}

// TestLimitedProcessKill: COM_PROCESS_KILL of another account's session
// is refused (1095) as KILL is.
func TestLimitedProcessKill(t *testing.T) {
	e := limitedFuzzEngine(t)
	srv, err := New(Config{Engine: e, Users: Users{"root": "root"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	other := e.NewSession()
	defer other.Close()
	other.SetClient("root", "localhost:1")
	c, _ := newLimitedConn(srv, nil)
	defer c.session.Close()
	id := binary.LittleEndian.AppendUint32([]byte{mysql.COM_PROCESS_KILL}, uint32(other.ID()))
	if _, err := c.dispatch(id); err != nil {
		t.Fatal(err)
	}
	if other.Killed() {
		t.Fatal("the limited account killed another account's session")
	}
}

// FuzzLimitedCommands is FuzzCommands from the limited account.
func FuzzLimitedCommands(f *testing.F) {
	for _, s := range limitedSeeds() {
		f.Add(s)
	}
	e := limitedFuzzEngine(f)
	srv, err := New(Config{Engine: e, Users: Users{"root": "root"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var script []byte
		for rest := data; len(rest) > 0; {
			var pkt []byte
			pkt, rest = nextCommand(rest)
			script = append(script, frame(0, pkt)...)
		}
		before := srv.Panics()
		c, rc := newLimitedConn(srv, script)
		func() {
			defer srv.recoverConn(c)
			defer c.session.Close()
			c.serve()
		}()
		if srv.Panics() != before {
			t.Fatalf("command loop panicked")
		}
		if bytes.Contains(rc.out.Bytes(), []byte(limitedSecret)) {
			t.Fatalf("a reply to the limited account holds the secret:\n%q", rc.out.String())
		}
		secretIntact(t, e)
	})
}
