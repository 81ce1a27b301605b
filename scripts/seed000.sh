#!/usr/bin/env bash
# Seed 000, step by step as the document runs it, against `plrun serve`:
# the seed's DDL and insert, ./ob_elr.py (scripts/ob_elr_seed.py: the
# seed's script with its indentation restored and, as the seed says to,
# its connection info pointed at this server: 127.0.0.1:2881), then the
# seed's two ALTER SYSTEM statements, the script again, and the seed's
# check that k went 0 -> 100,000 -> 200,000.
# Needs: mariadb-client (the mysql command), python3-pymysql for
# /usr/bin/python3. Everything listens on 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS=-mod=mod
PORT=2881
data=$(mktemp -d)
log=$(mktemp)
go build -o bin/plrun ./cmd/plrun
# --compat oceanbase: the handshake announces no autocommit, as the
# OceanBase server the seed ran against; the verbatim ob_elr.py never calls
# commit() and relies on pymysql then leaving its sessions in autocommit.
bin/plrun serve --compat oceanbase --listen 127.0.0.1:$PORT --data "$data" --user root --password root >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data" "$log"' EXIT
sql() { mysql -h127.0.0.1 -P$PORT -uroot@test -proot -Dtest -N -B -e "$1"; }
for _ in $(seq 50); do sql "select 1" >/dev/null 2>&1 && break; sleep 0.2; done

sql "CREATE TABLE \`sbtest1\` (
\`id\` int(11) NOT NULL AUTO_INCREMENT,
\`k\` int(11) NOT NULL DEFAULT '0',
\`c\` char(120) NOT NULL DEFAULT '',
\`pad\` char(60) NOT NULL DEFAULT '',
PRIMARY KEY (\`id\`)
);"
sql "insert into sbtest1 values(1,0,'aa','aa');"

echo "== ob_elr.py with default configurations (ELR off)"
/usr/bin/python3 scripts/ob_elr_seed.py
k=$(sql "select k from sbtest1 where id=1")
echo "k = $k"
[[ "$k" == 100000 ]] || { echo "FAIL: k is $k, want 100000"; exit 1; }

sql "alter system set _max_elr_dependent_trx_count = 1000;"
sql "alter system set enable_early_lock_release=true tenant= test;"
echo "== ob_elr.py with ELR on"
/usr/bin/python3 scripts/ob_elr_seed.py
k=$(sql "select k from sbtest1 where id=1")
echo "k = $k"
[[ "$k" == 200000 ]] || { echo "FAIL: k is $k, want 200000"; exit 1; }
sql "show global status like 'Elr_early_releases'"
echo "seed 000: ok"
