# pymysql with its default connect() (autocommit=False): a write is seen by
# another session only after commit(), and rollback() undoes it.
# Usage: python3 pymysql_txn.py HOST PORT
import sys
import pymysql

host, port = sys.argv[1], int(sys.argv[2])
def connect():
    return pymysql.connect(host=host, port=port, user="root", password="root", database="test")

a, b = connect(), connect()
print("autocommit", a.get_autocommit())
ca, cb = a.cursor(), b.cursor()
ca.execute("CREATE TABLE pm (id INT PRIMARY KEY, v INT)")
ca.execute("INSERT INTO pm VALUES (1, 0)")
a.commit()
ca.execute("UPDATE pm SET v = 999 WHERE id = 1")
cb.execute("SELECT v FROM pm WHERE id = 1")
print("other session before commit", cb.fetchone()[0])
b.commit()
a.rollback()
ca.execute("SELECT v FROM pm WHERE id = 1")
print("after rollback", ca.fetchone()[0])
ca.execute("UPDATE pm SET v = 7 WHERE id = 1")
a.commit()
cb.execute("SELECT v FROM pm WHERE id = 1")
print("other session after commit", cb.fetchone()[0])
