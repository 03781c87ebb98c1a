#!/usr/bin/env bash
# TPC-B: dbgauge dsbench --mode tpcb --prepare in the client-statements form
# and in the procedure form, each against pgbench's tpcb-like -M prepared
# (same scale, clients, duration), interleaved on one private PostgreSQL.
# dbgauge follows TPC-B's input rules (teller's branch, 85/15 accounts,
# delta +-999,999) and READ COMMITTED here to match pgbench's default
# isolation. Usage: bench/pgbench-tpcb.sh [SCALE] [SECONDS] [CLIENTS] [PAIRS]
source "$(dirname "$0")/lib.sh"
SCALE=${1:-10} SECS=${2:-20} CLIENTS=${3:-2} PAIRS=${4:-3}
start_server postgres --set shared_buffers=256MB --set max_connections=200; url=$URL
pgbench -q -i -s "$SCALE" "$url" >/dev/null 2>&1
st=() pr=()
for i in $(seq 1 "$PAIRS"); do
  for form in statements procedure; do
    "$DBG" dsbench --db "$url" --mode tpcb --form "$form" --prepare --isolation read-committed --scales "$SCALE" --cycles 1 \
      --duration "${SECS}s" --threads "$CLIENTS" --out "$WORK/$form$i" >/dev/null 2>&1
    declare "$form=$(json_get "$WORK/$form$i/results.json" "r['scales'][0]['median_tps']")"
  done
  pgbench -n -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$SECS" "$url" > "$WORK/p$i.out" 2>&1
  p=$(awk '/^tps = / {print $3; exit}' "$WORK/p$i.out")
  st+=("$(ratio "$statements" "$p")"); pr+=("$(ratio "$procedure" "$p")")
  echo "round $i: dbgauge statements $statements tps, procedure $procedure tps, pgbench tpcb-like $p tps"
done
echo "scale $SCALE, $CLIENTS clients: median ratio statements/pgbench = $(median "${st[@]}") (aim >= 0.95), procedure/pgbench = $(median "${pr[@]}") (aim >= 1.2)"
