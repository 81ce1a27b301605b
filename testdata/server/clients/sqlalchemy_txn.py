# SQLAlchemy Core and ORM over pymysql: create_all(), then a commit kept
# and a rollback undone, as on MySQL.
# Usage: python3 sqlalchemy_txn.py HOST PORT
import sys
from sqlalchemy import Column, Integer, String, create_engine, func, insert, select
from sqlalchemy.orm import Session, declarative_base

host, port = sys.argv[1], sys.argv[2]
engine = create_engine(f"mysql+pymysql://root:root@{host}:{port}/test", future=True)
Base = declarative_base()

class Item(Base):
    __tablename__ = "sa_items"
    id = Column(Integer, primary_key=True, autoincrement=False)
    name = Column(String(20), nullable=False)

Base.metadata.create_all(engine)
items = Item.__table__

# Core: a connection's transaction, committed then rolled back.
with engine.connect() as conn:
    conn.execute(insert(items).values(id=1, name="core-kept"))
    conn.commit()
    conn.execute(insert(items).values(id=2, name="core-undone"))
    conn.rollback()
with engine.connect() as conn:
    print("core", conn.execute(select(items.c.name).order_by(items.c.id)).scalars().all())

# ORM: a session's flush is undone by rollback().
with Session(engine, future=True) as s:
    s.add(Item(id=3, name="orm-kept"))
    s.commit()
    s.add(Item(id=4, name="orm-undone"))
    s.flush()
    print("orm flushed", s.scalar(select(func.count()).select_from(Item)))
    s.rollback()
    print("orm", [i.name for i in s.scalars(select(Item).order_by(Item.id))])
