#!/usr/bin/env bash
# Select-only: dbgauge dsbench --mode select --prepare against
# pgbench -S -M prepared, same scale, clients, threads and duration, on one
# private PostgreSQL, interleaved. Also client CPU seconds per 1,000
# transactions of each. Usage: bench/pgbench-select.sh [SCALE] [SECONDS] [CLIENTS] [PAIRS]
source "$(dirname "$0")/lib.sh"
SCALE=${1:-10} SECS=${2:-20} CLIENTS=${3:-2} PAIRS=${4:-3}
start_server postgres --set shared_buffers=256MB --set max_connections=200; url=$URL
pgbench -q -i -s "$SCALE" "$url" >/dev/null 2>&1
tps_r=() cpu_r=()
for i in $(seq 1 "$PAIRS"); do
  "$DBG" dsbench --db "$url" --mode select --prepare --scales "$SCALE" --cycles 1 --duration "${SECS}s" \
    --threads "$CLIENTS" --out "$WORK/a$i" >/dev/null 2>&1
  a=$(json_get "$WORK/a$i/results.json" "r['scales'][0]['median_tps']")
  an=$(json_get "$WORK/a$i/results.json" "r['scales'][0]['transactions']")
  cpu_of "$WORK/b$i.cpu" pgbench -n -S -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$SECS" "$url" > "$WORK/b$i.out" 2>&1
  b=$(awk '/^tps = / {print $3; exit}' "$WORK/b$i.out")
  bn=$(awk '/number of transactions actually processed/ {split($0,x,": "); split(x[2],y,"/"); print y[1]}' "$WORK/b$i.out")
  # Client CPU per 1,000 transactions: dbgauge's from its own rusage during
  # the cycles (results.json client_cpu_s), pgbench's from /usr/bin/time.
  ac=$(json_get "$WORK/a$i/results.json" "1000*r['scales'][0]['client_cpu_s']/r['scales'][0]['transactions']")
  bc=$(awk -v n="$bn" '{printf "%.4f", ($1+$2)*1000/n}' "$WORK/b$i.cpu")
  tps_r+=("$(ratio "$a" "$b")"); cpu_r+=("$(ratio "$ac" "$bc")")
  echo "pair $i: dbgauge $a tps ($ac cpu-s/1000 tx), pgbench $b tps ($bc cpu-s/1000 tx)"
done
echo "select-only scale $SCALE, $CLIENTS clients: median tps ratio dbgauge/pgbench = $(median "${tps_r[@]}") (aim >= 1.0)"
echo "client CPU per transaction: median ratio dbgauge/pgbench = $(median "${cpu_r[@]}") (aim <= 1.0)"
