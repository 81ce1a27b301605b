package server

import "testing"

// TestSQLAlchemySchemaRoundTrip: SQLAlchemy 1.4's create_all() (which
// asks information_schema.tables first), reflection and inspect()
// (SHOW CREATE TABLE, information_schema) of columns, keys, an index
// (CREATE INDEX) and a FOREIGN KEY, and drop_all() give what they give
// against MariaDB 10.11.
func TestSQLAlchemySchemaRoundTrip(t *testing.T) {
	needPython(t, "pymysql", "sqlalchemy")
	runScript(t, `tables ['sa_events', 'sa_users']
has True False
sa_users id INTEGER(display_width=11) not-null default=None auto comment=None
sa_users email VARCHAR(length=120) not-null default=None  comment=None
sa_users name VARCHAR(length=50) not-null default='anon'  comment=None
sa_users score DECIMAL(precision=10, scale=2) nullable default=0.00  comment=None
sa_users bio TEXT() nullable default=None  comment=about me
sa_users created DATETIME() nullable default=current_timestamp()  comment=None
sa_users pk ['id']
sa_users indexes [('email', ('email',), True), ('ix_users_name_score', ('name', 'score'), False)]
sa_users unique [('email', ('email',))]
sa_users comment people
sa_users foreign keys []
sa_events user_id INTEGER(display_width=11) not-null default=None  comment=None
sa_events seq BIGINT(display_width=20) not-null default=None  comment=None
sa_events kind VARCHAR(length=20) not-null default=None  comment=None
sa_events note VARCHAR(length=200) nullable default=None  comment=None
sa_events pk ['user_id', 'seq']
sa_events indexes [('uq_kind_note', ('kind', 'note'), True)]
sa_events unique [('uq_kind_note', ('kind', 'note'))]
sa_events comment None
sa_events foreign keys [(['user_id'], 'sa_users', ['id'], {'ondelete': 'CASCADE'})]
reflected ['sa_events', 'sa_users']
events references ['sa_users.id']
users autoincrement ['id']
after drop_all []
`, []string{"SQLALCHEMY_SILENCE_UBER_WARNING=1"}, debianPython, repoPath(t, "testdata/server/clients/sqlalchemy_schema.py"))
}

// TestSQLAlchemyColumnTypes: SQLAlchemy's Enum, LargeBinary and MySQL's
// VARBINARY, BINARY, SET, BIT, TINYTEXT and MEDIUMTEXT are created, carry
// their values (bytes exactly, a SET as a Python set, BIT as a number),
// compare as MariaDB's and reflect as the types they were.
func TestSQLAlchemyColumnTypes(t *testing.T) {
	needPython(t, "pymysql", "sqlalchemy")
	runScript(t, `row 1 Mood.sad large b'\x00\xff\xc3(\x00' b'Ab' b'x\x00\x00' ['read', 'write'] 5 s 70000
row 2 Mood.happy None b'' b'ab' b'\xff\x00\x01' [] 0 None None
by tag [] [(2,)]
by mood [(2,)]
by data [(1,)]
col id INTEGER(display_width=11) not-null default=None
col mood ENUM('sad', 'happy') not-null default='happy'
col size ENUM('small', 'large') nullable default=None
col data BLOB() nullable default=None
col tag VARBINARY(length=8) nullable default=None
col fixed BINARY(length=3) nullable default=None
col flags SET('read', 'write', 'exec') nullable default=None
col bits BIT(length=10) nullable default=None
col short TINYTEXT() nullable default=None
col long MEDIUMTEXT() nullable default=None
after drop_all []
`, []string{"SQLALCHEMY_SILENCE_UBER_WARNING=1"}, debianPython, repoPath(t, "testdata/server/clients/sqlalchemy_coltypes.py"))
}

// TestSQLAlchemyUpsert: SQLAlchemy's MySQL upsert (VALUES(col) in ON
// DUPLICATE KEY UPDATE, a row met on a UNIQUE key) answers as MariaDB's.
func TestSQLAlchemyUpsert(t *testing.T) {
	needPython(t, "pymysql", "sqlalchemy")
	runScript(t, `upsert 1 rowcount 1
upsert 2 rowcount 2
upsert 3 rowcount 2
multi rowcount 3
rows [(1, 'a@b', 13), (9, 'c@d', 2)]
`, []string{"SQLALCHEMY_SILENCE_UBER_WARNING=1"}, debianPython, repoPath(t, "testdata/server/clients/sqlalchemy_upsert.py"))
}
