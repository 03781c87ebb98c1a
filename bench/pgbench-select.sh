#!/usr/bin/env bash
# Select-only on PostgreSQL: dbgauge dsbench --mode select --prepare against
# pgbench -n -S -M prepared, with the same URL, scale, duration and clients
# (dbgauge --threads N of one connection each; pgbench -c N -j N), on one
# private instance, interleaved dbgauge, pgbench, dbgauge, pgbench, ... at
# every client count. Prints per pair each side's tps and client CPU per
# transaction (dbgauge's from results.json: client_cpu_s / transactions;
# pgbench's user + sys from /usr/bin/time over its transactions), and per
# client count the median ratio dbgauge/pgbench with its min and max.
#
# Usage: [SOCKET=1] bench/pgbench-select.sh [SCALE] [SECONDS] [CLIENTS] [PAIRS]
#   defaults: SCALE 10, SECONDS 20 per run, CLIENTS "2 8", PAIRS 5; each may
#   also come from the environment (SCALE, SECS, CLIENTS, PAIRS).
#   SOCKET=1: both connect through the instance's Unix-domain socket instead of
#   TCP loopback (pgbench gets the same libpq URL as dbgauge,
#   postgres:///dbgauge?host=SOCKDIR&port=P&user=postgres).
source "$(dirname "$0")/lib.sh"
SCALE=${1:-${SCALE:-10}} SECS=${2:-${SECS:-20}} PAIRS=${4:-${PAIRS:-5}}
CLIENTS=$(clients_list "${3:-${CLIENTS:-2 8}}")
start_server postgres --set shared_buffers=256MB --set max_connections=200
echo "pgbench-select: scale $SCALE, $SECS s per run, clients $CLIENTS, $PAIRS pairs, $TRANSPORT ($(masked "$URL"))"
pgbench -q -i -s "$SCALE" "$URL" >"$WORK/init.out" 2>&1 || die_log "$WORK/init.out" "pgbench -i"
for i in $(seq 1 "$PAIRS"); do
  for c in $CLIENTS; do
    dsbench "a$i-$c" "$c" --mode select --prepare --scales "$SCALE" --duration "${SECS}s"
    b=$WORK/b$i-$c
    cpu_of "$b.cpu" pgbench -n -S -M prepared -c "$c" -j "$c" -T "$SECS" "$URL" >"$b.out" 2>&1 || die_log "$b.out" "pgbench -S"
    read -r bt bn < <(pgbench_result "$b.out") || die_log "$b.out" "reading pgbench's output"
    pair pgbench-select pgbench "$c" "$i" "$A_TPS" "$A_CPU" "$bt" "$(cpu_per_tx "$b.cpu" "$bn")"
  done
done
summarize pgbench-select pgbench 1.0 1.0
