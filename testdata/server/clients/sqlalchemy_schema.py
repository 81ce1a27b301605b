# SQLAlchemy 1.4's schema round trip over pymysql: metadata.create_all()
# (which first asks information_schema whether each table exists), then
# MetaData.reflect() and inspect() reading the tables back (columns,
# types, defaults, autoincrement, primary keys, indexes, unique
# constraints, foreign keys, comments), then drop_all() (children first). The printed lines are what
# MariaDB 10.11 gives.
# Usage: python3 sqlalchemy_schema.py HOST PORT
import sys
from sqlalchemy import (BigInteger, Column, DateTime, ForeignKey, Index, Integer, MetaData, Numeric, String, Table, Text,
                        UniqueConstraint, create_engine, inspect, text)

host, port = sys.argv[1], sys.argv[2]
engine = create_engine(f"mysql+pymysql://root:root@{host}:{port}/test", future=True)
md = MetaData()
Table("sa_users", md,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("email", String(120), nullable=False, unique=True),
      Column("name", String(50), nullable=False, server_default="anon"),
      Column("score", Numeric(10, 2), server_default=text("0")),
      Column("bio", Text, comment="about me"),
      Column("created", DateTime, server_default=text("CURRENT_TIMESTAMP")),
      Index("ix_users_name_score", "name", "score"),
      comment="people")
Table("sa_events", md,
      Column("user_id", Integer, ForeignKey("sa_users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False),
      Column("seq", BigInteger, primary_key=True, autoincrement=False),
      Column("kind", String(20), nullable=False),
      Column("note", String(200)),
      UniqueConstraint("kind", "note", name="uq_kind_note"))

md.create_all(engine)
md.create_all(engine)  # checkfirst: the tables exist now, nothing is created
insp = inspect(engine)
print("tables", sorted(insp.get_table_names()))
print("has", insp.has_table("sa_users"), insp.has_table("sa_nosuch"))
for t in ("sa_users", "sa_events"):
    for c in insp.get_columns(t):
        print(t, c["name"], repr(c["type"]), "nullable" if c["nullable"] else "not-null",
              "default=%s" % c["default"], "auto" if c.get("autoincrement") is True else "",
              "comment=%s" % c.get("comment"))
    print(t, "pk", insp.get_pk_constraint(t)["constrained_columns"])
    print(t, "indexes", sorted((i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in insp.get_indexes(t)))
    print(t, "unique", sorted((u["name"], tuple(u["column_names"])) for u in insp.get_unique_constraints(t)))
    print(t, "comment", insp.get_table_comment(t)["text"])
    print(t, "foreign keys", [(fk["constrained_columns"], fk["referred_table"], fk["referred_columns"], fk["options"])
                              for fk in insp.get_foreign_keys(t)])
reflected = MetaData()
reflected.reflect(bind=engine, only=["sa_users", "sa_events"])
print("reflected", sorted(reflected.tables))
print("events references", sorted(fk.target_fullname for fk in reflected.tables["sa_events"].foreign_keys))
print("users autoincrement", [c.name for c in reflected.tables["sa_users"].columns if c.autoincrement is True])
md.drop_all(engine)
print("after drop_all", sorted(inspect(engine).get_table_names()))
