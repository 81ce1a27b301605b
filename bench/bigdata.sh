#!/usr/bin/env bash
# bench/bigdata.sh — issue 15's measured goals in one run: N sysbench rows
# (default 10,000,000) in plrun with plrun_cache_size=512M beside MariaDB
# 10.11 with innodb_buffer_pool_size=512M, on the same machine and disk.
#   plrun:   `plrun bench load --data D --rows N --cache-size 512M --keep`
#            (rows/s, peak RSS, size, CHECKPOINT), then
#            `plrun serve --data D --set plrun_cache_size=512M`
#   MariaDB: a private mariadbd (datadir under /tmp, 127.0.0.1:3413,
#            innodb_flush_log_at_trx_commit=1, no binlog) loaded with
#            `sysbench oltp_common --tables=1 --table-size=N prepare`
# (and plrun's open time after a clean close and after a SIGKILL with 64 MiB
# of log, see BIGDATA_OPENS), then against each: stock sysbench oltp_point_select and oltp_update_index,
# BIGDATA_THREADS threads, BIGDATA_TIME s, --rand-type=uniform. The plrun
# server's VmRSS is sampled every second during each run (the peak is
# reported, beside its VmHWM); MariaDB's likewise. Checks: point_select
# read one row per transaction; update_index grew SUM(k) by exactly the
# writes sysbench counted, and every run had no errors.
#
# Usage: bench/bigdata.sh                      (10M rows, 60 s per run)
#        BIGDATA_ROWS=200000 BIGDATA_TIME=10 bench/bigdata.sh   (a check)
# Environment:
#   BIGDATA_ROWS (10000000)   BIGDATA_TIME (60)   BIGDATA_THREADS (8)
#   BIGDATA_CACHE (512M): plrun_cache_size and innodb_buffer_pool_size
#   BIGDATA_PLRUN_PORT (3412)  BIGDATA_MARIADB_PORT (3413)
#   BIGDATA_SERVERS subset of "plrun mariadb" (default both)
#   BIGDATA_OPENS (1): also `plrun bench open` after the load (a clean
#     close), and after the sysbench runs `plrun bench dirty --log-mb
#     BIGDATA_LOG_MB` (64) then `plrun bench open`: the recovery time; 0 skips
#     them
#   BIGDATA_OUT  Markdown output (default bench/bigdata-latest.md)
#   PLRUN_BIN    use this plrun binary instead of building ./cmd/plrun
#   BIGDATA_KEEP=1 keep the work folder (data folders and logs)
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROWS=${BIGDATA_ROWS:-10000000}
TIME=${BIGDATA_TIME:-60}
THREADS=${BIGDATA_THREADS:-8}
CACHE=${BIGDATA_CACHE:-512M}
PPORT=${BIGDATA_PLRUN_PORT:-3412}
MPORT=${BIGDATA_MARIADB_PORT:-3413}
SERVERS=${BIGDATA_SERVERS:-"plrun mariadb"}
OPENS=${BIGDATA_OPENS:-1}
LOGMB=${BIGDATA_LOG_MB:-64}
OUT=${BIGDATA_OUT:-$ROOT/bench/bigdata-latest.md}
log() { printf '[bigdata %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { log "FATAL: $*"; exit 1; }

install_deps() {
	local need=()
	command -v mariadbd >/dev/null 2>&1 && command -v mariadb-install-db >/dev/null 2>&1 || need+=(mariadb-server)
	command -v mariadb >/dev/null 2>&1 || need+=(mariadb-client)
	command -v sysbench >/dev/null 2>&1 || need+=(sysbench)
	if [ ${#need[@]} -gt 0 ]; then
		log "installing from Debian: ${need[*]}"
		apt-get update -qq || die "apt-get update failed"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" ||
			die "apt-get install ${need[*]} failed"
	fi
}
install_deps

WORK=$(mktemp -d /tmp/plrun-bigdata.XXXXXX)
PPID_= MPID= SAMPLER= RES=$WORK/results.tsv OPENRES=$WORK/opens.tsv
: >"$RES"
: >"$OPENRES"
stop_pid() { # pid: SIGTERM, wait up to 60 s, then SIGKILL
	local pid=$1 i
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$pid" 2>/dev/null && { log "pid $pid ignored SIGTERM for 60 s; SIGKILL"; kill -KILL "$pid" 2>/dev/null; }
	wait "$pid" 2>/dev/null
	return 0
}
cleanup() {
	[ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null
	stop_pid "$PPID_"; stop_pid "$MPID"
	if [ "${BIGDATA_KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port_free "$PPORT" || die "port $PPORT is in use (set BIGDATA_PLRUN_PORT)"
port_free "$MPORT" || die "port $MPORT is in use (set BIGDATA_MARIADB_PORT)"

if [ -n "${PLRUN_BIN:-}" ]; then
	PLRUN=$PLRUN_BIN
else
	PLRUN=$WORK/plrun
	log "building plrun (go build ./cmd/plrun)"
	(cd "$ROOT" && go build -o "$PLRUN" ./cmd/plrun) || die "go build failed"
fi
REV=$(cd "$ROOT" && git describe --always --dirty 2>/dev/null || echo unknown)
BYTES=$(numfmt --from=iec "${CACHE^^}") || die "BIGDATA_CACHE=$CACHE is not a size"

sqlc() { local port=$1; shift; mariadb --protocol=TCP -h127.0.0.1 -P"$port" -uroot -proot -N -B -e "$*"; }
kb() { awk '/^'"$2"':/{print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

# sample_rss PID FILE: the process's VmRSS (kB) once a second, until killed.
sample_rss() { while kill -0 "$1" 2>/dev/null; do kb "$1" VmRSS >>"$2"; sleep 1; done; }
peak_of() { sort -n "$1" 2>/dev/null | tail -1 | awk '{printf "%.0f", $1/1024}'; }

# run_sysbench server port pid workload: one timed run, checked; a line of $RES.
run_sysbench() {
	local server=$1 port=$2 pid=$3 w=$4
	local lg=$WORK/$1-$4.log samples=$WORK/$1-$4.rss
	local k0 k1 out rc qps tps txns reads writes errs p95 check
	: >"$samples"
	[ "$w" = oltp_update_index ] && k0=$(sqlc "$port" 'SELECT SUM(k) FROM sbtest.sbtest1' 2>>"$lg")
	sample_rss "$pid" "$samples" & SAMPLER=$!
	log "sysbench $w threads=$THREADS time=${TIME}s against $server"
	out=$(timeout $((TIME + 300)) sysbench "$w" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$port" \
		--mysql-user=root --mysql-password=root --mysql-db=sbtest --tables=1 --table-size="$ROWS" \
		--threads="$THREADS" --time="$TIME" --rand-type=uniform --percentile=95 --report-interval=10 run 2>&1); rc=$?
	kill "$SAMPLER" 2>/dev/null; wait "$SAMPLER" 2>/dev/null; SAMPLER=
	printf '%s\n' "$out" >>"$lg"
	qps=$(echo "$out" | awk '/^ *queries:/{gsub(/\(/,"",$3); print $3}')
	txns=$(echo "$out" | awk '/^ *transactions:/{print $2}')
	reads=$(echo "$out" | awk '/^ *read:/{print $2}')
	writes=$(echo "$out" | awk '/^ *write:/{print $2}')
	errs=$(echo "$out" | awk '/^ *ignored errors:/{print $3}')
	p95=$(echo "$out" | awk '/95th percentile:/{print $3}')
	if [ $rc -ne 0 ] || [ -z "$txns" ]; then
		check="FAIL rc=$rc: $(echo "$out" | grep -E 'FATAL|ALERT|error' | sort | uniq -c | head -3 | tr '\n' ' ')"
	elif ! kill -0 "$pid" 2>/dev/null; then check="FAIL: server died"
	elif [ "${errs:-0}" != 0 ]; then check="FAIL: $errs ignored errors"
	elif [ "$w" = oltp_point_select ] && [ "$reads" != "$txns" ]; then check="FAIL: $reads reads for $txns transactions"
	elif [ "$w" = oltp_update_index ]; then
		k1=$(sqlc "$port" 'SELECT SUM(k) FROM sbtest.sbtest1' 2>>"$lg")
		if [ "$((k1 - k0))" = "$writes" ] 2>/dev/null; then check="ok: SUM(k) +$writes"
		else check="FAIL: SUM(k) grew by $((k1 - k0)), sysbench wrote $writes"; fi
	else check="ok: $txns reads"; fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$server" "${qps:--}" "${p95:--}" "$(peak_of "$samples")" \
		"$(( $(kb "$pid" VmHWM) / 1024 ))" "$check" >>"$RES"
	log "result: $w | $server | qps ${qps:--} | p95 ${p95:--} ms | peak RSS $(peak_of "$samples") MiB | $check"
}

run_plrun() {
	local d=$WORK/plrun i
	mkdir -p "$d"
	log "plrun bench load --rows $ROWS --cache-size $CACHE"
	"$PLRUN" bench load --data "$d/data" --rows "$ROWS" --cache-size "$CACHE" --keep >"$d/load.txt" 2>"$d/load.err" ||
		{ tail -5 "$d/load.err" >&2; die "plrun bench load failed"; }
	cat "$d/load.txt" >&2
	[ "$OPENS" = 1 ] && bench_open "$d" "after a clean close"
	PLOAD=$(awk '/^  rows /{print $3" "$4" "$5" "$6}' "$d/load.txt")
	PLOADPEAK=$(awk '/peak RSS/{print $3" "$4; exit}' "$d/load.txt")
	"$PLRUN" serve --listen "127.0.0.1:$PPORT" --data "$d/data" --user root --password root \
		--set plrun_cache_size="$CACHE" >"$d/server.log" 2>&1 &
	PPID_=$!
	for i in $(seq 1 600); do
		sqlc "$PPORT" 'SELECT 1' >/dev/null 2>&1 && break
		kill -0 "$PPID_" 2>/dev/null || { tail -20 "$d/server.log" >&2; die "plrun serve exited at start"; }
		sleep 0.5
	done
	[ "$(sqlc "$PPORT" 'SELECT @@plrun_cache_size')" = "$BYTES" ] || die "plrun serve: plrun_cache_size is not $BYTES"
	log "plrun pid $PPID_ on 127.0.0.1:$PPORT, RSS after open $(( $(kb "$PPID_" VmRSS) / 1024 )) MiB"
	for w in oltp_point_select oltp_update_index; do run_sysbench plrun "$PPORT" "$PPID_" "$w"; done
	stop_pid "$PPID_"; PPID_=
	[ "$OPENS" = 1 ] || return 0
	log "plrun bench dirty --log-mb $LOGMB (ends in its own SIGKILL), then bench open: recovery"
	"$PLRUN" bench dirty --data "$d/data" --log-mb "$LOGMB" --cache-size "$CACHE" >"$d/dirty.txt" 2>"$d/dirty.err"
	[ $? = 137 ] || { tail -5 "$d/dirty.err" >&2; die "plrun bench dirty did not end in SIGKILL"; }
	bench_open "$d" recovered
}

# bench_open DIR what: plrun bench open on the folder; a line of $OPENRES.
bench_open() {
	"$PLRUN" bench open --data "$1/data" --cache-size "$CACHE" >"$1/open-$2.txt" 2>&1 ||
		{ tail -5 "$1/open-$2.txt" >&2; die "plrun bench open ($2) failed"; }
	cat "$1/open-$2.txt" >&2
	printf '%s\t%s\n' "$2" "$(awk '/^  open /{o=$2" "$3; l=$11; r=$(NF-1)" "$NF} /point selects/{p=$8" ms, p99 "$11" ms"}
		END{printf "open %s (log replayed %s MiB), RSS after %s; point selects p50 %s", o, l, r, p}' "$1/open-$2.txt")" >>"$OPENRES"
}

run_mariadb() {
	local d=$WORK/mariadb i t0
	mkdir -p "$d"
	mariadb-install-db --no-defaults --datadir="$d/data" --user=root --auth-root-authentication-method=normal \
		--skip-test-db --skip-name-resolve >"$d/install.log" 2>&1 || { cat "$d/install.log" >&2; die "mariadb-install-db failed"; }
	mariadbd --no-defaults --user=root --datadir="$d/data" --socket="$d/sock" --pid-file="$d/pid" \
		--port="$MPORT" --bind-address=127.0.0.1 --skip-name-resolve --skip-log-bin \
		--innodb-flush-log-at-trx-commit=1 --innodb-buffer-pool-size="$CACHE" --max-connections=200 \
		--log-error="$d/error.log" >"$d/stdout.log" 2>&1 &
	MPID=$!
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
		CREATE DATABASE sbtest;" || die "mariadb setup failed"
	[ "$(sqlc "$MPORT" 'SELECT @@innodb_buffer_pool_size')" = "$BYTES" ] || die "mariadb: innodb_buffer_pool_size is not $BYTES"
	log "mariadb $(sqlc "$MPORT" 'SELECT VERSION()') pid $MPID: sysbench oltp_common prepare, $ROWS rows"
	t0=$(date +%s.%N)
	sysbench oltp_common --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$MPORT" --mysql-user=root \
		--mysql-password=root --mysql-db=sbtest --tables=1 --table-size="$ROWS" prepare >"$d/prepare.log" 2>&1 ||
		{ tail -5 "$d/prepare.log" >&2; die "sysbench prepare failed"; }
	MLOAD=$(awk -v t0="$t0" -v t1="$(date +%s.%N)" -v n="$ROWS" 'BEGIN{printf "%.1f s, %.0f rows/s", t1-t0, n/(t1-t0)}')
	log "mariadb load: $MLOAD, RSS $(( $(kb "$MPID" VmRSS) / 1024 )) MiB"
	for w in oltp_point_select oltp_update_index; do run_sysbench mariadb "$MPORT" "$MPID" "$w"; done
	stop_pid "$MPID"; MPID=
}

START=$(date +%s)
PLOAD=- PLOADPEAK=- MLOAD=-
log "work dir $WORK; plrun $REV; $ROWS rows, cache $CACHE, sysbench $THREADS threads ${TIME}s, uniform"
for s in $SERVERS; do
	case $s in
	plrun) run_plrun ;;
	mariadb) run_mariadb ;;
	*) die "unknown server $s" ;;
	esac
done

mkdir -p "$(dirname "$OUT")"
{
	echo "plrun vs MariaDB on data larger than the cache — $(date -u '+%Y-%m-%d %H:%M UTC'), plrun $REV," \
		"$(mariadbd --version | awk '{print $3}'), sysbench $(sysbench --version | awk '{print $2}'); $(nproc) cores," \
		"load average at end $(cut -d' ' -f1-3 /proc/loadavg); $ROWS rows, cache $CACHE; wall $(( $(date +%s) - START ))s"
	echo
	echo "Load: plrun $PLOAD (peak RSS $PLOADPEAK); MariaDB (sysbench prepare) $MLOAD"
	echo
	awk -F'\t' '{printf "plrun bench open, %s: %s\n\n", $1, $2}' "$OPENRES"
	echo "| sysbench ($THREADS threads, ${TIME}s, uniform) | server | QPS | p95 ms | peak RSS MiB (1 s samples) | VmHWM MiB | check |"
	echo "|---|---|---:|---:|---:|---:|---|"
	awk -F'\t' '{printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1,$2,$3,$4,$5,$6,$7}' "$RES"
	echo
	for w in oltp_point_select oltp_update_index; do
		awk -F'\t' -v w="$w" '$1==w && $2=="plrun"{p=$3} $1==w && $2=="mariadb"{m=$3}
			END{if (p != "" && m != "" && m > 0) printf "%s: plrun/MariaDB QPS %.2fx (%s vs %s)\n\n", w, p/m, p, m}' "$RES"
	done
} >"$OUT"
cat "$OUT"
grep -q 'FAIL' "$RES" && { log "some runs FAILED (see check column)"; exit 2; }
exit 0
