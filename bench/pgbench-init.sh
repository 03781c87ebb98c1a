#!/usr/bin/env bash
# Population at scale 10: dbgauge (populate + primary keys + foreign keys,
# as results.json times them) against pgbench -i -s 10 with foreign keys
# (-I dtgvpf: drop, tables, generate client side, vacuum, primary keys,
# foreign keys), interleaved on one private PostgreSQL. dbgauge fills every
# filler (TPC-B's 100-byte rows); pgbench leaves three fillers NULL. Prints
# per pair each side's accounts rows per second of population and the median
# ratio dbgauge/pgbench with its min and max (a rows/s ratio of 0.77 is a
# time ratio of 1.3). Client CPU is not compared: dbgauge's run does more
# than populate (a cycle, the report).
#
# Usage: [SOCKET=1] bench/pgbench-init.sh [SCALE] [PAIRS]
#   defaults: SCALE 10, PAIRS 5; also from the environment (SCALE, PAIRS).
#   SOCKET=1: both connect through the instance's Unix-domain socket instead of
#   TCP loopback (pgbench gets the same libpq URL as dbgauge).
source "$(dirname "$0")/lib.sh"
SCALE=${1:-${SCALE:-10}} PAIRS=${2:-${PAIRS:-5}}
RATE_UNIT=rows/s PER=row
start_server postgres --set shared_buffers=256MB
echo "pgbench-init: scale $SCALE, $PAIRS pairs, $TRANSPORT ($(masked "$URL"))"
rows=$((SCALE * 100000))
for i in $(seq 1 "$PAIRS"); do
  "$DBG" dsbench --db "$URL" --scales "$SCALE" --cycles 1 --duration 1s --threads 1 --out "$WORK/a$i" >"$WORK/a$i.log" 2>&1 ||
    die_log "$WORK/a$i.log" "dbgauge dsbench"
  a=$(json_get "$WORK/a$i/results.json" "(lambda s: s['populate_s']+s['primary_key_s']+s['foreign_key_s'])(r['scales'][0])")
  s=$(date +%s.%N)
  pgbench -q -i -I dtgvpf -s "$SCALE" "$URL" >"$WORK/b$i.out" 2>&1 || die_log "$WORK/b$i.out" "pgbench -i"
  e=$(date +%s.%N)
  b=$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e-s}')
  pair pgbench-init "pgbench -i" 1 "$i" "$(awk -v n="$rows" -v s="$a" 'BEGIN {printf "%.1f", n/s}')" - \
    "$(awk -v n="$rows" -v s="$b" 'BEGIN {printf "%.1f", n/s}')" -
done
summarize pgbench-init "pgbench -i" 0.77 -
