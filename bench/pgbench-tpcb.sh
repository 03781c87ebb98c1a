#!/usr/bin/env bash
# TPC-B on PostgreSQL: dbgauge dsbench --mode tpcb --prepare in the client
# statements form (--form statements) and in the procedure form (--form
# procedure: one server-side call per transaction), each against pgbench's
# tpcb-like -M prepared, with the same URL, scale, duration and clients
# (dbgauge --threads N of one connection each; pgbench -c N -j N), on one
# private instance. Interleaved: per pair and client count dbgauge
# statements, pgbench, dbgauge procedure; both forms are compared with that
# pgbench run. dbgauge follows TPC-B's input rules (teller's branch, 85/15
# accounts, delta +-999,999) and runs READ COMMITTED here, pgbench's
# isolation. Both start from freshly loaded tables: dbgauge populates before
# every run, pgbench -i reloads its tables before every pgbench run (neither
# timed). Prints per pair each side's tps and client CPU per transaction
# (dbgauge's from results.json, pgbench's user + sys from /usr/bin/time), and
# per form and client count the median ratio dbgauge/pgbench with min and max.
#
# Usage: [SOCKET=1] bench/pgbench-tpcb.sh [SCALE] [SECONDS] [CLIENTS] [PAIRS]
#   defaults: SCALE 10, SECONDS 20 per run, CLIENTS "2 8", PAIRS 5; each may
#   also come from the environment (SCALE, SECS, CLIENTS, PAIRS).
#   SOCKET=1: both connect through the instance's Unix-domain socket instead of
#   TCP loopback (pgbench gets the same libpq URL as dbgauge).
source "$(dirname "$0")/lib.sh"
SCALE=${1:-${SCALE:-10}} SECS=${2:-${SECS:-20}} PAIRS=${4:-${PAIRS:-5}}
CLIENTS=$(clients_list "${3:-${CLIENTS:-2 8}}")
start_server postgres --set shared_buffers=256MB --set max_connections=200
echo "pgbench-tpcb: scale $SCALE, $SECS s per run, clients $CLIENTS, $PAIRS pairs, $TRANSPORT ($(masked "$URL"))"
for i in $(seq 1 "$PAIRS"); do
  for c in $CLIENTS; do
    dsbench "s$i-$c" "$c" --mode tpcb --form statements --prepare --isolation read-committed --scales "$SCALE" --duration "${SECS}s"
    st=$A_TPS sc=$A_CPU
    pgbench -q -i -s "$SCALE" "$URL" >"$WORK/init.out" 2>&1 || die_log "$WORK/init.out" "pgbench -i"
    b=$WORK/b$i-$c
    cpu_of "$b.cpu" pgbench -n -M prepared -c "$c" -j "$c" -T "$SECS" "$URL" >"$b.out" 2>&1 || die_log "$b.out" "pgbench tpcb-like"
    read -r bt bn < <(pgbench_result "$b.out") || die_log "$b.out" "reading pgbench's output"
    bc=$(cpu_per_tx "$b.cpu" "$bn")
    dsbench "p$i-$c" "$c" --mode tpcb --form procedure --prepare --isolation read-committed --scales "$SCALE" --duration "${SECS}s"
    pair pgbench-tpcb-statements pgbench "$c" "$i" "$st" "$sc" "$bt" "$bc" statements
    pair pgbench-tpcb-procedure pgbench "$c" "$i" "$A_TPS" "$A_CPU" "$bt" "$bc" procedure
  done
done
summarize pgbench-tpcb-statements pgbench 1.0 1.0
summarize pgbench-tpcb-procedure pgbench 1.3 1.0
