# SQLAlchemy 1.4's MySQL upsert over pymysql: insert(...).on_duplicate_key_update
# renders `ON DUPLICATE KEY UPDATE n = (VALUES(n) + users.n)`; the second
# row meets the first on the UNIQUE email, not the primary key. The printed
# lines are what MariaDB 10.11 gives.
# Usage: python3 sqlalchemy_upsert.py HOST PORT
import sys

from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, select
from sqlalchemy.dialects.mysql import insert

host, port = sys.argv[1], sys.argv[2]
engine = create_engine(f"mysql+pymysql://root:root@{host}:{port}/test")
md = MetaData()
users = Table("upsert_users", md, Column("id", Integer, primary_key=True),
              Column("email", String(100), unique=True), Column("n", Integer))
md.create_all(engine)
with engine.begin() as c:
    for id_, n in ((1, 1), (2, 5), (3, 7)):
        st = insert(users).values(id=id_, email="x@y", n=n)
        r = c.execute(st.on_duplicate_key_update(n=st.inserted.n + users.c.n))
        print("upsert", id_, "rowcount", r.rowcount)
    st = insert(users).values([{"id": 1, "email": "a@b", "n": 0}, {"id": 9, "email": "c@d", "n": 2}])
    r = c.execute(st.on_duplicate_key_update(email=st.inserted.email))
    print("multi rowcount", r.rowcount)
    print("rows", c.execute(select(users).order_by(users.c.id)).all())
md.drop_all(engine)
