#!/usr/bin/env bash
# Population at scale 10: dbgauge (populate + primary keys + foreign keys,
# as results.json times them) against pgbench -i -s 10 with foreign keys
# (-I dtgvpf: drop, tables, generate client side, vacuum, primary keys,
# foreign keys), interleaved on one private PostgreSQL. dbgauge fills every
# filler (TPC-B's 100-byte rows); pgbench leaves three fillers NULL.
# Usage: bench/pgbench-init.sh [SCALE] [PAIRS]
source "$(dirname "$0")/lib.sh"
SCALE=${1:-10} PAIRS=${2:-3}
start_server postgres --set shared_buffers=256MB; url=$URL
rs=()
for i in $(seq 1 "$PAIRS"); do
  "$DBG" dsbench --db "$url" --scales "$SCALE" --cycles 1 --duration 1s --threads 1 --out "$WORK/a$i" >/dev/null 2>&1
  a=$(json_get "$WORK/a$i/results.json" "(lambda s: s['populate_s']+s['primary_key_s']+s['foreign_key_s'])(r['scales'][0])")
  s=$(date +%s.%N); pgbench -q -i -I dtgvpf -s "$SCALE" "$url" >/dev/null 2>&1; e=$(date +%s.%N)
  b=$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e-s}')
  rs+=("$(ratio "$a" "$b")")
  echo "pair $i: dbgauge populate+keys $a s, pgbench -i $b s"
done
echo "population at scale $SCALE: median time ratio dbgauge/pgbench -i = $(median "${rs[@]}") (aim <= 1.3)"
