#!/usr/bin/env python3
# The seed's ob_elr.py (OceanBase ELR hot-row test) with its indentation
# restored. Only the connection config changed: it is read from the
# environment (MYSQL_HOST, MYSQL_PORT, MYSQL_USER, MYSQL_PASSWORD,
# MYSQL_DATABASE; AUTOCOMMIT=0 turns autocommit off), and PARALLEL / BATCH
# override the seed's 50 threads x 2000 updates. autocommit is explicit
# because the seed's run relied on its server's default: every update
# committed (k grew by 100,000 per run), and a server that reports
# autocommit in its handshake (MySQL, MariaDB) would otherwise get
# "SET AUTOCOMMIT = 0" from pymysql and roll the updates back at close.
from concurrent.futures import ThreadPoolExecutor
import os
import pymysql
import time
import threading
# database connection info
config = {
    'user': os.environ.get('MYSQL_USER', 'root@test'),
    'password': os.environ.get('MYSQL_PASSWORD', 'root'),
    'host': os.environ.get('MYSQL_HOST', '127.0.0.1'),
    'port': int(os.environ.get('MYSQL_PORT', '2881')),
    'database': os.environ.get('MYSQL_DATABASE', 'test'),
    'autocommit': os.environ.get('AUTOCOMMIT', '1') not in ('0', 'off', 'OFF', 'false'),
}
# parallel thread and updates in each thread
parallel = int(os.environ.get('PARALLEL', '50'))
batch_num = int(os.environ.get('BATCH', '2000'))
# update query
def update_elr():
    update_hot_row = ("update sbtest1 set k=k+1 where id=1")
    cnx = pymysql.connect(**config)
    cursor = cnx.cursor()
    for i in range(0,batch_num):
        cursor.execute(update_hot_row)
    cursor.close()
    cnx.close()
start=time.time()
with ThreadPoolExecutor(max_workers=parallel) as pool:
    for i in range(parallel):
        pool.submit(update_elr)
end = time.time()
elapse_time = round((end-start),2)
print('Parallel Degree:',parallel)
print('Total Updates:',parallel*batch_num)
print('Elapse Time:',elapse_time,'s')
print('TPS on Hot Row:' ,round(parallel*batch_num/elapse_time,2),'/s')
