#!/usr/bin/env bash
# Point selects on MariaDB: dbgauge dsbench --mode select --prepare against
# sysbench oltp_point_select (one table of the same row count, prepared
# statements), same threads and duration, interleaved on one private
# MariaDB. Usage: bench/sysbench-point-select.sh [SCALE] [SECONDS] [THREADS] [PAIRS]
source "$(dirname "$0")/lib.sh"
SCALE=${1:-10} SECS=${2:-20} THREADS=${3:-2} PAIRS=${4:-3}
start_server mariadb; url=$URL
port=${url##*:}; port=${port%%/*}
SB=(sysbench oltp_point_select --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$port" --mysql-user=root
    --mysql-db=dbgauge --tables=1 --table-size=$((SCALE * 100000)) --threads="$THREADS" --time="$SECS" --report-interval=0)
"${SB[@]}" prepare >/dev/null 2>&1
rs=()
for i in $(seq 1 "$PAIRS"); do
  "$DBG" dsbench --db "$url" --mode select --prepare --scales "$SCALE" --cycles 1 --duration "${SECS}s" --threads "$THREADS" \
    --out "$WORK/a$i" >/dev/null 2>&1
  a=$(json_get "$WORK/a$i/results.json" "r['scales'][0]['median_tps']")
  b=$("${SB[@]}" run 2>/dev/null | awk '/transactions:/ {gsub(/[()]/,"",$3); print $3; exit}')
  rs+=("$(ratio "$a" "$b")")
  echo "pair $i: dbgauge $a tps, sysbench $b tps"
done
echo "point select scale $SCALE, $THREADS threads: median tps ratio dbgauge/sysbench = $(median "${rs[@]}") (aim >= 0.9)"
