# KILL QUERY with pymysql's thread_id() (the handshake's connection id)
# interrupts that connection's statement (1317), which stays connected.
# Usage: python3 pymysql_kill.py HOST PORT
import sys
import threading
import time
import pymysql

host, port = sys.argv[1], int(sys.argv[2])
def connect():
    return pymysql.connect(host=host, port=port, user="root", password="root", database="test", autocommit=True)

holder, waiter, killer = connect(), connect(), connect()
holder.cursor().execute("CREATE TABLE pk (id INT PRIMARY KEY, k INT)")
holder.cursor().execute("INSERT INTO pk VALUES (1, 0)")
holder.begin()
holder.cursor().execute("UPDATE pk SET k = 1 WHERE id = 1")
outcome = []
def wait():
    try:
        waiter.cursor().execute("UPDATE pk SET k = 100 WHERE id = 1")
        outcome.append("updated")
    except pymysql.err.OperationalError as e:
        outcome.append(e.args[0])
t = threading.Thread(target=wait)
t.start()
kc = killer.cursor()
for _ in range(500):  # until the waiter's UPDATE is in the process list
    kc.execute("SHOW PROCESSLIST")
    if any(r[0] == waiter.thread_id() and r[7] and "k = 100" in r[7] for r in kc.fetchall()):
        break
    time.sleep(0.02)
kc.execute("SELECT CONNECTION_ID()")
print("thread_id is CONNECTION_ID", killer.thread_id() == kc.fetchone()[0])
kc.execute("KILL QUERY %d" % waiter.thread_id())
t.join(30)
print("waiter got", outcome)
holder.commit()
wc = waiter.cursor()
wc.execute("SELECT k FROM pk WHERE id = 1")
print("k", wc.fetchone()[0])
