# pymysql's callproc + nextset() over a procedure that returns two result
# sets, then the CALL's own OK; the same with cursor.execute("CALL ...").
# The procedure is Lua against plrun and SQL against MariaDB (PROC_LANG=sql),
# so the two servers' answers can be compared.
# Usage: python3 pymysql_callproc.py HOST PORT
import os
import sys
import pymysql

host, port = sys.argv[1], int(sys.argv[2])
conn = pymysql.connect(host=host, port=port, user="root", password="root", database="test", autocommit=True)
cur = conn.cursor()
cur.execute("DROP PROCEDURE IF EXISTS two_sets")
if os.environ.get("PROC_LANG") == "sql":
    cur.execute("CREATE PROCEDURE two_sets(IN n INT) BEGIN SELECT n AS a; SELECT 'x' AS b, n * 2 AS c; END")
else:
    cur.execute("CREATE PROCEDURE two_sets(IN n INT) LANGUAGE LUA AS $$\n"
                "session:emit(session:runSql('SELECT ? AS a', {n}))\n"
                "session:emit(session:runSql(\"SELECT 'x' AS b, ? * 2 AS c\", {n}))\n$$")

def show_sets(cur):
    while True:
        if cur.description is None:
            print("ok affected", cur.rowcount)
        else:
            print([d[0] for d in cur.description], list(cur.fetchall()))
        if not cur.nextset():
            break

cur.callproc("two_sets", (21,))
show_sets(cur)
cur.execute("CALL two_sets(5)")
show_sets(cur)
cur.execute("SELECT 'next statement' AS s")
print(cur.fetchall())
