#!/usr/bin/env bash
# bench/peers.sh — plrun vs MariaDB 10.11 on the same machine, in one run
# (issue 5). Installs what it needs from Debian, starts a private durable
# MariaDB (innodb_flush_log_at_trx_commit=1, no binlog) and plrun serve
# (hotspot=ON, ELR off, then restarted with ELR on), and runs the same client
# workloads against each:
#   (a) scripts/ob_elr.py, the seed's pymysql hot-row script
#       (PARALLEL x BATCH autocommit "update sbtest1 set k=k+1 where id=1"),
#       checking that k grew by exactly PARALLEL x BATCH;
#   (b) sysbench scripts/oltp_inventory.lua (tables=1 table_size=1
#       hotspot_rows=1) at several thread counts, --inventory_hotspot off
#       (and on for plrun, where the hints join hot-row group update: MariaDB 10.11
#       reads /*+ ... */ as a comment), checking that c grew by exactly
#       the number of writes sysbench reports.
#   (c) general OLTP (issue 10): stock sysbench oltp_point_select and
#       oltp_read_write with their default flags (prepared statements,
#       1 table of 10,000 rows) at PEERS_OLTP_THREADS, prepared with
#       --create_secondary=off on both servers (plrun has no CREATE INDEX
#       yet, and the same schema keeps the comparison fair), checking that
#       point_select read one row per transaction and that read_write left
#       the row count as it was and had no errors.
# For every workload it reads the server's utime+stime from /proc/PID/stat
# before and after and reports server CPU seconds per 1000 updates (per
# 1000 transactions for (c)).
#
# Usage: bench/peers.sh            (full: 50 x 2000, threads 1 8 64 512)
#        PEERS_QUICK=1 bench/peers.sh   (50 x 200, threads 1 64, short runs)
# Environment:
#   PEERS_OUT      Markdown table output (default bench/peers-latest.md)
#   PEERS_TIME     sysbench --time per point (default 20; quick 5)
#   PEERS_THREADS  sysbench thread counts (default "1 8 64 512"; quick "1 64")
#   PEERS_PARALLEL / PEERS_BATCH   ob_elr.py threads / updates per thread
#   PEERS_MARIADB_PORT (3307), PEERS_PLRUN_PORT (3308)
#   PEERS_SERVERS  subset of "mariadb plrun-elr-off plrun-elr-on"
#   PEERS_WORKLOADS subset of "hotrow oltp" (default both)
#   PEERS_OLTP_THREADS thread counts for (c) (default "8 64")
#   PLRUN_BIN      use this plrun binary instead of building ./cmd/plrun
#   PEERS_KEEP=1   keep the temp dir (data dirs and logs) after the run
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUICK=${PEERS_QUICK:-0}
OUT=${PEERS_OUT:-$ROOT/bench/peers-latest.md}
MPORT=${PEERS_MARIADB_PORT:-3307}
PPORT=${PEERS_PLRUN_PORT:-3308}
SERVERS=${PEERS_SERVERS:-"mariadb plrun-elr-off plrun-elr-on"}
WORKLOADS=${PEERS_WORKLOADS:-"hotrow oltp"}
OLTP_THREADS=${PEERS_OLTP_THREADS:-"8 64"}
if [ "$QUICK" = 1 ]; then
	PAR=${PEERS_PARALLEL:-50}; BATCH=${PEERS_BATCH:-200}
	THREADS=${PEERS_THREADS:-"1 64"}; TIME=${PEERS_TIME:-5}
else
	PAR=${PEERS_PARALLEL:-50}; BATCH=${PEERS_BATCH:-2000}
	THREADS=${PEERS_THREADS:-"1 8 64 512"}; TIME=${PEERS_TIME:-20}
fi
PY=/usr/bin/python3 # Debian's python3-pymysql is for the system python
CLK_TCK=$(getconf CLK_TCK)
log() { printf '[peers %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { log "FATAL: $*"; exit 1; }

# ---------------------------------------------------------------- install
install_deps() {
	local need=()
	command -v mariadbd >/dev/null 2>&1 && command -v mariadb-install-db >/dev/null 2>&1 || need+=(mariadb-server)
	command -v mariadb >/dev/null 2>&1 || need+=(mariadb-client)
	$PY -c 'import pymysql' >/dev/null 2>&1 || need+=(python3-pymysql)
	command -v sysbench >/dev/null 2>&1 || need+=(sysbench)
	if [ ${#need[@]} -gt 0 ]; then
		log "installing from Debian: ${need[*]}"
		apt-get update -qq || die "apt-get update failed"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" ||
			die "apt-get install ${need[*]} failed"
	fi
}
install_deps
command -v go >/dev/null 2>&1 || [ -n "${PLRUN_BIN:-}" ] || die "go not found (or set PLRUN_BIN)"

WORK=$(mktemp -d /var/tmp/plrun-peers.XXXXXX) # on disk, not tmpfs: fsync is real
MPID= PPID_= RES=$WORK/results.tsv RES_OLTP=$WORK/results-oltp.tsv
: >"$RES"
: >"$RES_OLTP"

stop_pid() { # pid: SIGTERM, wait up to 30 s, then SIGKILL
	local pid=$1 i
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$pid" 2>/dev/null && { log "pid $pid ignored SIGTERM for 30 s; SIGKILL"; kill -KILL "$pid" 2>/dev/null; }
	wait "$pid" 2>/dev/null
	return 0
}
cleanup() {
	stop_pid "$PPID_"; stop_pid "$MPID"
	if [ "${PEERS_KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port_free "$MPORT" || die "port $MPORT is in use (set PEERS_MARIADB_PORT)"
port_free "$PPORT" || die "port $PPORT is in use (set PEERS_PLRUN_PORT)"

if [ -n "${PLRUN_BIN:-}" ]; then
	PLRUN=$PLRUN_BIN
else
	PLRUN=$WORK/plrun
	log "building plrun (go build ./cmd/plrun)"
	(cd "$ROOT" && go build -o "$PLRUN" ./cmd/plrun) || die "go build failed"
fi
REV=$(cd "$ROOT" && git describe --always --dirty 2>/dev/null || echo unknown)

# ---------------------------------------------------------------- servers
# sqlc PORT SQL...: one statement batch through the mariadb client over TCP.
sqlc() { local port=$1; shift; mariadb --protocol=TCP -h127.0.0.1 -P"$port" -uroot -proot -N -B -e "$*"; }

start_mariadb() {
	local d=$WORK/mariadb
	mkdir -p "$d"
	log "mariadb-install-db into $d"
	mariadb-install-db --no-defaults --datadir="$d/data" --user=root --auth-root-authentication-method=normal \
		--skip-test-db --skip-name-resolve >"$d/install.log" 2>&1 || { cat "$d/install.log" >&2; die "mariadb-install-db failed"; }
	mariadbd --no-defaults --user=root --datadir="$d/data" --socket="$d/sock" --pid-file="$d/pid" \
		--port="$MPORT" --bind-address=127.0.0.1 --skip-name-resolve --skip-log-bin \
		--innodb-flush-log-at-trx-commit=1 --innodb-doublewrite=1 --innodb-flush-method=fsync \
		--innodb-buffer-pool-size=256M --max-connections=2000 --open-files-limit=10000 \
		--log-error="$d/error.log" >"$d/stdout.log" 2>&1 &
	MPID=$!
	local i
	for i in $(seq 1 120); do
		mariadb-admin --socket="$d/sock" -uroot ping >/dev/null 2>&1 && break
		kill -0 "$MPID" 2>/dev/null || { tail -20 "$d/error.log" >&2; die "mariadbd exited at start"; }
		sleep 0.5
	done
	mariadb --socket="$d/sock" -uroot -e "
		DELETE FROM mysql.global_priv WHERE User='';
		FLUSH PRIVILEGES;
		ALTER USER 'root'@'localhost' IDENTIFIED BY 'root';
		CREATE OR REPLACE USER 'root'@'127.0.0.1' IDENTIFIED BY 'root';
		GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
		CREATE DATABASE IF NOT EXISTS test;" || die "mariadb user setup failed"
	log "mariadb $(sqlc "$MPORT" 'SELECT VERSION()') pid $MPID on 127.0.0.1:$MPORT," \
		"flush_log_at_trx_commit=$(sqlc "$MPORT" 'SELECT @@innodb_flush_log_at_trx_commit')," \
		"log_bin=$(sqlc "$MPORT" 'SELECT @@log_bin')"
}

start_plrun() { # name [--set ...]
	local name=$1; shift
	local d=$WORK/$name
	mkdir -p "$d"
	"$PLRUN" serve --listen "127.0.0.1:$PPORT" --data "$d/data" --user root --password root "$@" >"$d/server.log" 2>&1 &
	PPID_=$!
	local i
	for i in $(seq 1 120); do
		sqlc "$PPORT" 'SELECT 1' >/dev/null 2>&1 && break
		kill -0 "$PPID_" 2>/dev/null || { tail -20 "$d/server.log" >&2; die "plrun serve exited at start"; }
		sleep 0.5
	done
	sqlc "$PPORT" 'CREATE DATABASE IF NOT EXISTS test' || die "plrun: CREATE DATABASE test failed"
	log "plrun ($name, $*) pid $PPID_ on 127.0.0.1:$PPORT," \
		"enable_early_lock_release=$(sqlc "$PPORT" 'SELECT @@enable_early_lock_release' 2>&1)"
}

# ---------------------------------------------------------------- measuring
cpu_ticks() { # utime+stime of pid (fields 14, 15; comm may hold spaces)
	local s
	s=$(cat "/proc/$1/stat" 2>/dev/null) || { echo -1; return; }
	s=${s##*) }
	set -- $s
	echo $(( ${12} + ${13} ))
}
# record workload server config tps p95 updates ticks check
record() {
	local cpu per
	if [ "$7" -ge 0 ] 2>/dev/null && [ "$6" -gt 0 ] 2>/dev/null; then
		cpu=$(awk -v t="$7" -v h="$CLK_TCK" 'BEGIN{printf "%.2f", t/h}')
		per=$(awk -v t="$7" -v h="$CLK_TCK" -v u="$6" 'BEGIN{printf "%.3f", t/h/u*1000}')
	else cpu=-; per=-; fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$cpu" "$per" "$8" >>"$RES"
	log "result: $1 | $2 | $3 | tps $4 | p95 $5 | updates $6 | cpu ${cpu}s | ${per}s/1000 | $8"
}

# run_ob_elr server config port pid user
run_ob_elr() {
	local server=$1 config=$2 port=$3 pid=$4 user=$5 k0 k1 t0 t1 out rc tps check want lg
	lg="$WORK/ob_elr-$server-${config// /_}.log"
	sqlc "$port" "DROP TABLE IF EXISTS test.sbtest1;
		CREATE TABLE test.sbtest1 (id int(11) NOT NULL AUTO_INCREMENT, k int(11) NOT NULL DEFAULT '0',
		  c char(120) NOT NULL DEFAULT '', pad char(60) NOT NULL DEFAULT '', PRIMARY KEY (id));
		INSERT INTO test.sbtest1 VALUES (1,0,'aa','aa')" >"$lg" 2>&1 ||
		{ record "ob_elr.py ${PAR}x${BATCH}" "$server" "$config" - - 0 -1 "FAIL setup: $(tr '\n' ' ' <"$lg")"; return; }
	k0=$(sqlc "$port" 'SELECT k FROM test.sbtest1 WHERE id=1' 2>>"$lg")
	want=$((PAR * BATCH))
	t0=$(cpu_ticks "$pid")
	log "ob_elr.py $PAR x $BATCH against $server ($config)"
	out=$(MYSQL_HOST=127.0.0.1 MYSQL_PORT=$port MYSQL_USER=$user MYSQL_PASSWORD=root MYSQL_DATABASE=test \
		PARALLEL=$PAR BATCH=$BATCH timeout 900 $PY "$ROOT/scripts/ob_elr.py" 2>&1); rc=$?
	t1=$(cpu_ticks "$pid")
	echo "$out" >>"$lg"
	k1=$(sqlc "$port" 'SELECT k FROM test.sbtest1 WHERE id=1' 2>>"$lg")
	tps=$(echo "$out" | awk '/TPS on Hot Row:/{print $5}')
	if [ $rc -ne 0 ]; then check="FAIL rc=$rc: $(echo "$out" | tail -3 | tr '\n' ' ')"
	elif ! kill -0 "$pid" 2>/dev/null; then check="FAIL: server died"
	elif [ "$((k1 - k0))" = "$want" ] 2>/dev/null; then check="ok: k +$want"
	else check="FAIL: k grew by $((k1 - k0)) (k $k0 -> $k1), want $want"; fi
	# ThreadPoolExecutor swallows worker exceptions; the k check catches them.
	[ "$t0" -ge 0 ] && [ "$t1" -ge 0 ] || t1=-1 t0=0
	record "ob_elr.py ${PAR}x${BATCH}" "$server" "$config" "${tps:--}" - "$want" "$((t1 - t0))" "$check"
}

sb() { # port threads hotspot cmd
	timeout $((TIME + 120)) sysbench "$ROOT/scripts/oltp_inventory.lua" --db-driver=mysql \
		--mysql-host=127.0.0.1 --mysql-port="$1" --mysql-user=root --mysql-password=root --mysql-db=test \
		--tables=1 --table_size=1 --hotspot_rows=1 --inventory_hotspot="$3" \
		--threads="$2" --time="$TIME" --events=0 --percentile=95 --report-interval=0 "$4"
}

# run_sysbench server config port pid hotspot-modes
run_sysbench() {
	local server=$1 config=$2 port=$3 pid=$4 modes=$5 lg h t c0 c1 t0 t1 out rc tps p95 w check
	lg="$WORK/sysbench-$server-${config// /_}.log"
	sqlc "$port" 'DROP TABLE IF EXISTS test.sbtest1' >>"$lg" 2>&1
	if ! sb "$port" 1 off prepare >>"$lg" 2>&1; then
		record "sysbench prepare" "$server" "$config" - - 0 -1 "FAIL: $(tail -3 "$lg" | tr '\n' ' ')"
		return
	fi
	for h in $modes; do
		for t in $THREADS; do
			if ! kill -0 "$pid" 2>/dev/null; then
				record "sysbench hotspot=$h t=$t" "$server" "$config" - - 0 -1 "FAIL: server not running"; continue
			fi
			c0=$(sqlc "$port" 'SELECT c FROM test.sbtest1 WHERE id=1' 2>>"$lg")
			log "sysbench oltp_inventory hotspot=$h threads=$t time=${TIME}s against $server ($config)"
			t0=$(cpu_ticks "$pid")
			out=$(sb "$port" "$t" "$h" run 2>&1); rc=$?
			t1=$(cpu_ticks "$pid")
			printf '=== hotspot=%s threads=%s rc=%s\n%s\n' "$h" "$t" "$rc" "$out" >>"$lg"
			c1=$(sqlc "$port" 'SELECT c FROM test.sbtest1 WHERE id=1' 2>>"$lg")
			tps=$(echo "$out" | awk '/^ *transactions:/{gsub(/\(/,"",$3); print $3}')
			p95=$(echo "$out" | awk '/95th percentile:/{print $3}')
			w=$(echo "$out" | awk '/^ *write:/{print $2}')
			if [ $rc -ne 0 ] || [ -z "$w" ]; then
				check="FAIL rc=$rc: $(echo "$out" | grep -E 'FATAL|ALERT|error' | sort | uniq -c | head -3 | tr '\n' ' ')"
				w=0
			elif ! kill -0 "$pid" 2>/dev/null; then check="FAIL: server died"
			elif [ "$((c1 - c0))" = "$w" ] 2>/dev/null; then check="ok: c +$w"
			else check="FAIL: c grew by $((c1 - c0)) (c $c0 -> $c1), sysbench wrote $w"; fi
			[ "$t0" -ge 0 ] && [ "$t1" -ge 0 ] || t1=-1 t0=0
			record "sysbench hotspot=$h t=$t" "$server" "$config" "${tps:--}" "${p95:--}" "$w" "$((t1 - t0))" "$check"
		done
	done
}

sb_oltp() { # port workload threads cmd [flags]
	local port=$1 workload=$2 threads=$3 cmd=$4; shift 4
	timeout $((TIME + 300)) sysbench "$workload" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$port" \
		--mysql-user=root --mysql-password=root --mysql-db=test --threads="$threads" --time="$TIME" \
		--percentile=95 --report-interval=0 "$cmd" "$@"
}

# run_oltp server config port pid: stock oltp_point_select and
# oltp_read_write, default flags, at each of OLTP_THREADS.
run_oltp() {
	local server=$1 config=$2 port=$3 pid=$4 lg w t n0 n1 t0 t1 out rc tps p95 txns reads errs check per cpu
	lg="$WORK/oltp-$server-${config// /_}.log"
	sqlc "$port" 'DROP TABLE IF EXISTS test.sbtest1' >>"$lg" 2>&1
	if ! sb_oltp "$port" oltp_common 1 prepare --create_secondary=off >>"$lg" 2>&1; then
		printf '%s\t%s\t%s\t-\t-\t0\t-\t-\tFAIL prepare: %s\n' "oltp prepare" "$server" "$config" "$(tail -2 "$lg" | tr '\n' ' ')" >>"$RES_OLTP"
		return
	fi
	for w in oltp_point_select oltp_read_write; do
		for t in $OLTP_THREADS; do
			n0=$(sqlc "$port" 'SELECT COUNT(*) FROM test.sbtest1' 2>>"$lg")
			log "sysbench $w threads=$t time=${TIME}s against $server ($config)"
			t0=$(cpu_ticks "$pid")
			out=$(sb_oltp "$port" "$w" "$t" run 2>&1); rc=$?
			t1=$(cpu_ticks "$pid")
			printf '=== %s threads=%s rc=%s\n%s\n' "$w" "$t" "$rc" "$out" >>"$lg"
			n1=$(sqlc "$port" 'SELECT COUNT(*) FROM test.sbtest1' 2>>"$lg")
			tps=$(echo "$out" | awk '/^ *transactions:/{gsub(/\(/,"",$3); print $3}')
			txns=$(echo "$out" | awk '/^ *transactions:/{print $2}')
			reads=$(echo "$out" | awk '/^ *read:/{print $2}')
			errs=$(echo "$out" | awk '/^ *ignored errors:/{print $3}')
			p95=$(echo "$out" | awk '/95th percentile:/{print $3}')
			if [ $rc -ne 0 ] || [ -z "$txns" ]; then
				check="FAIL rc=$rc: $(echo "$out" | grep -E 'FATAL|ALERT' | sort | uniq -c | head -2 | tr '\n' ' ')"; txns=0
			elif ! kill -0 "$pid" 2>/dev/null; then check="FAIL: server died"
			elif [ "$w" = oltp_point_select ] && [ "$reads" != "$txns" ]; then check="FAIL: $reads reads for $txns transactions"
			elif [ "$w" = oltp_read_write ] && [ "$n0" != "$n1" ]; then check="FAIL: rows $n0 -> $n1"
			else check="ok: $txns txns, ${errs:-0} ignored errors (deadlocks), rows $n1"; fi
			if [ "$t0" -ge 0 ] && [ "$t1" -ge 0 ] && [ "$txns" -gt 0 ]; then
				cpu=$(awk -v t="$((t1 - t0))" -v h="$CLK_TCK" 'BEGIN{printf "%.2f", t/h}')
				per=$(awk -v t="$((t1 - t0))" -v h="$CLK_TCK" -v u="$txns" 'BEGIN{printf "%.3f", t/h/u*1000}')
			else cpu=-; per=-; fi
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w t=$t" "$server" "$config" "${tps:--}" "${p95:--}" "$txns" "$cpu" "$per" "$check" >>"$RES_OLTP"
			log "result: $w t=$t | $server | $config | tps $tps | p95 $p95 | txns $txns | cpu ${cpu}s | ${per}s/1000 txns | $check"
		done
	done
}

# run_workloads server config port pid user hotspot-modes
run_workloads() {
	case " $WORKLOADS " in *" hotrow "*)
		run_ob_elr "$1" "$2" "$3" "$4" "$5"
		run_sysbench "$1" "$2" "$3" "$4" "$6" ;;
	esac
	case " $WORKLOADS " in *" oltp "*) run_oltp "$1" "$2" "$3" "$4" ;; esac
}

# ---------------------------------------------------------------- run
START=$(date +%s)
log "work dir $WORK; plrun $REV; quick=$QUICK ob_elr ${PAR}x${BATCH}; sysbench threads [$THREADS] ${TIME}s"
for s in $SERVERS; do
	case $s in
	mariadb)
		start_mariadb
		run_workloads mariadb "10.11 flush=1" "$MPORT" "$MPID" root "off"
		stop_pid "$MPID"; MPID= ;;
	plrun-elr-off)
		start_plrun "$s" --set hotspot=ON
		run_workloads plrun "ELR off" "$PPORT" "$PPID_" root@test "off on"
		stop_pid "$PPID_"; PPID_= ;;
	plrun-elr-on)
		start_plrun "$s" --set enable_early_lock_release=ON --set hotspot=ON
		run_workloads plrun "ELR on" "$PPORT" "$PPID_" root@test "off on"
		stop_pid "$PPID_"; PPID_= ;;
	*) die "unknown server $s" ;;
	esac
done

# ---------------------------------------------------------------- report
mkdir -p "$(dirname "$OUT")"
{
	echo "plrun vs MariaDB — $(date -u '+%Y-%m-%d %H:%M UTC'), plrun $REV, $(mariadbd --version | awk '{print $3}')," \
		"sysbench $(sysbench --version | awk '{print $2}'); $(nproc) cores, load average at end $(cut -d' ' -f1-3 /proc/loadavg);" \
		"workloads: $WORKLOADS; ob_elr.py ${PAR}x${BATCH}; sysbench ${TIME}s per point; wall $(( $(date +%s) - START ))s"
	echo
	if [ -s "$RES" ]; then
		echo "| workload | server | config | TPS | p95 ms | updates | server CPU s | CPU s/1000 updates | check |"
		echo "|---|---|---|---:|---:|---:|---:|---:|---|"
		awk -F'\t' '{printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1,$2,$3,$4,$5,$6,$7,$8,$9}' "$RES"
		echo
	fi
	if [ -s "$RES_OLTP" ]; then
		echo "| stock sysbench | server | config | TPS | p95 ms | transactions | server CPU s | CPU s/1000 txns | check |"
		echo "|---|---|---|---:|---:|---:|---:|---:|---|"
		awk -F'\t' '{printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1,$2,$3,$4,$5,$6,$7,$8,$9}' "$RES_OLTP"
	fi
} >"$OUT"
cat "$OUT"
cat "$RES" "$RES_OLTP" | grep -q 'FAIL' && { log "some workloads FAILED (see check column)"; exit 2; }
exit 0
