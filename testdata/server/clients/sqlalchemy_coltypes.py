# SQLAlchemy 1.4 over pymysql with the column types applications declare
# beyond numbers and VARCHAR: Enum (of a Python enum and of strings),
# LargeBinary, VARBINARY, BINARY, SET, BIT and the TEXT sizes. create_all(),
# rows written and read back through Core (bytes with NUL, 0xff and
# invalid UTF-8 exactly), reflection of the types, drop_all(). The printed
# lines are what MariaDB 10.11 gives.
# Usage: python3 sqlalchemy_coltypes.py HOST PORT
import enum
import sys

from sqlalchemy import Column, Enum, Integer, LargeBinary, MetaData, Table, create_engine, inspect, select
from sqlalchemy.dialects.mysql import BINARY, BIT, MEDIUMTEXT, SET, TINYTEXT, VARBINARY


class Mood(enum.Enum):
    sad = 1
    happy = 2


host, port = sys.argv[1], sys.argv[2]
engine = create_engine(f"mysql+pymysql://root:root@{host}:{port}/test", future=True)
md = MetaData()
things = Table("sa_things", md,
               Column("id", Integer, primary_key=True, autoincrement=False),
               Column("mood", Enum(Mood), nullable=False, server_default="happy"),
               Column("size", Enum("small", "large", name="size")),
               Column("data", LargeBinary),
               Column("tag", VARBINARY(8), unique=True),
               Column("fixed", BINARY(3)),
               Column("flags", SET("read", "write", "exec")),
               Column("bits", BIT(10)),
               Column("short", TINYTEXT),
               Column("long", MEDIUMTEXT))
md.create_all(engine)
payload = b"\x00\xff\xc3(\x00"
with engine.begin() as conn:
    conn.execute(things.insert(), {"id": 1, "mood": Mood.sad, "size": "large", "data": payload, "tag": b"Ab",
                                   "fixed": b"x", "flags": {"write", "read"}, "bits": 5, "short": "s",
                                   "long": "l" * 70000})
    # mood left out: the server default
    conn.execute(things.insert(), {"id": 2, "size": None, "data": b"", "tag": b"ab", "fixed": b"\xff\x00\x01",
                                   "flags": set(), "bits": 0})
with engine.connect() as conn:
    for r in conn.execute(select(things).order_by(things.c.id)):
        print("row", r.id, r.mood, r.size, r.data, r.tag, r.fixed, sorted(r.flags) if r.flags is not None else None,
              r.bits, r.short, len(r.long) if r.long else r.long)
    print("by tag", conn.execute(select(things.c.id).where(things.c.tag == b"AB")).fetchall(),
          conn.execute(select(things.c.id).where(things.c.tag == b"ab")).fetchall())
    print("by mood", conn.execute(select(things.c.id).where(things.c.mood == Mood.happy)).fetchall())
    print("by data", conn.execute(select(things.c.id).where(things.c.data == payload)).fetchall())
insp = inspect(engine)
for c in insp.get_columns("sa_things"):
    print("col", c["name"], repr(c["type"]), "nullable" if c["nullable"] else "not-null", "default=%s" % c["default"])
md.drop_all(engine)
print("after drop_all", sorted(inspect(engine).get_table_names()))
