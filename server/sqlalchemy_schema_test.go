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
