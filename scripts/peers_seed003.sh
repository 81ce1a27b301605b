#!/usr/bin/env bash
# Seed 003's loop (1000 x INSERT + COMMIT in a procedure) on the peers, in
# one run beside plrun: MariaDB 10.11 (InnoDB, innodb_flush_log_at_trx_commit=1,
# its SQL procedure exactly as the seed writes it) and PostgreSQL 15 (the same
# loop in PL/pgSQL, synchronous_commit on and off). Prints the median CALL
# time of CALLS calls for each; then plrun's `bench plcommit` for SQL, Lua and
# JavaScript, async off and on. Private instances on 127.0.0.1 only.
#
#   scripts/peers_seed003.sh [CALLS]      (needs mariadbd, postgres, /usr/bin/python3 + pymysql)
set -euo pipefail
CALLS=${1:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/peers-seed003.XXXX)
MPORT=3420 PPORT=5440
cleanup() {
  [[ -n "${MPID:-}" ]] && kill "$MPID" 2>/dev/null || true
  [[ -n "${PGDATA:-}" ]] && su postgres -c "pg_ctl -D $PGDATA -m fast stop" >/dev/null 2>&1 || pg_ctl -D "${PGDATA:-/nonexistent}" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.1f\n", (a[NR/2]+a[NR/2+1])/2}'; }

# --- MariaDB ---
mariadb-install-db --user=root --datadir="$WORK/mdb" >/dev/null 2>&1
mariadbd --user=root --datadir="$WORK/mdb" --port=$MPORT --socket="$WORK/mdb.sock" --bind-address=127.0.0.1 \
  --skip-grant-tables --innodb-flush-log-at-trx-commit=1 >"$WORK/mdb.log" 2>&1 &
MPID=$!
for _ in $(seq 100); do mysqladmin --socket="$WORK/mdb.sock" ping >/dev/null 2>&1 && break; sleep 0.1; done
mysql --socket="$WORK/mdb.sock" <<'SQL'
CREATE DATABASE IF NOT EXISTS test;
USE test;
CREATE TABLE t0 (id INT PRIMARY KEY AUTO_INCREMENT, a INT);
DELIMITER $$
CREATE PROCEDURE test()
BEGIN
DECLARE counter INT DEFAULT 1;
WHILE counter <= 1000 DO
    INSERT INTO t0 (a) VALUES (counter);
    commit;
    SET counter = counter + 1;
END WHILE;
END $$
DELIMITER ;
SQL
/usr/bin/python3 - "$MPORT" "$CALLS" >"$WORK/mdb.times" <<'PY'
import sys, time, pymysql
c = pymysql.connect(host="127.0.0.1", port=int(sys.argv[1]), user="root", database="test")
cur = c.cursor()
for _ in range(int(sys.argv[2])):
    t = time.perf_counter(); cur.execute("CALL test()"); print("%.1f" % ((time.perf_counter() - t) * 1000))
PY
echo "MariaDB 10.11 (flush=1): median CALL $(median <"$WORK/mdb.times") ms  [$(tr '\n' ' ' <"$WORK/mdb.times")]"
kill "$MPID"; wait "$MPID" 2>/dev/null || true; MPID=

# --- PostgreSQL ---
PGDATA="$WORK/pg"; mkdir -p "$PGDATA"; chown postgres "$WORK" "$PGDATA" 2>/dev/null || true
pgrun() { if [[ $(id -u) -eq 0 ]]; then su postgres -c "$*"; else bash -c "$*"; fi; }
pgrun "initdb -D $PGDATA -A trust >/dev/null"
pgrun "pg_ctl -D $PGDATA -o '-p $PPORT -k $WORK -c listen_addresses=127.0.0.1' -l $WORK/pg.log start >/dev/null"
for sync in on off; do
  pgrun "psql -h 127.0.0.1 -p $PPORT -d postgres -qAt" >"$WORK/pg-$sync.out" <<SQL
DROP TABLE IF EXISTS t0; CREATE TABLE t0 (id SERIAL PRIMARY KEY, a INT);
CREATE OR REPLACE PROCEDURE test() LANGUAGE plpgsql AS \$\$
DECLARE counter INT := 1;
BEGIN
  WHILE counter <= 1000 LOOP
    INSERT INTO t0 (a) VALUES (counter);
    COMMIT;
    counter := counter + 1;
  END LOOP;
END \$\$;
SET synchronous_commit = $sync;
\timing on
$(for _ in $(seq "$CALLS"); do echo "CALL test();"; done)
SQL
  grep -o 'Time: [0-9.]*' "$WORK/pg-$sync.out" | awk '{print $2}' >"$WORK/pg-$sync.times"
  echo "PostgreSQL 15 (synchronous_commit=$sync): median CALL $(median <"$WORK/pg-$sync.times") ms  [$(tr '\n' ' ' <"$WORK/pg-$sync.times")]"
done

# --- plrun ---
cd "$ROOT" && go build -o "$WORK/plrun" ./cmd/plrun
"$WORK/plrun" bench plcommit --lang ${PLRUN_LANGS:-sql,lua,js} --async both --iterations 1000 --calls "$CALLS" | grep -E 'mean|async on/off'
