#!/usr/bin/env bash
# pgbench's built-in scripts through dbgauge pgbench against the real
# pgbench on PostgreSQL: tpcb-like and select-only, each read from the file
# dbgauge ships (internal/workload/script/parse/builtin/*.sql) and given to
# both tools with -f, with the same command line otherwise (-M prepared,
# -c N -j N, -T SECONDS, -s SCALE, the URL), on one private instance whose
# tables the real pgbench -i made once. Interleaved: per pair and client
# count dbgauge pgbench, then pgbench, for each script. Both vacuum before
# their run (no -n), as pgbench does by default. Prints per pair each
# side's tps (from its report, the same text for both) and client CPU per
# transaction, and per script and client count the median ratio
# dbgauge/pgbench with min and max. pgbench's CPU is its whole process's
# (user + sys from /usr/bin/time over the transactions its report counts);
# dbgauge's is its process's while the clients ran (results.json's
# client_cpu_per_tx_us: its start, vacuum and run directory left out), as
# bench/pgbench-select.sh takes dbgauge dsbench's. WHOLE=1 takes dbgauge's
# whole process too (run directory and page included).
#
# Usage: [SOCKET=1] bench/pgbench-builtin.sh [SCALE] [SECONDS] [CLIENTS] [PAIRS]
#   defaults: SCALE 10, SECONDS 20 per run, CLIENTS "2 8", PAIRS 5; each may
#   also come from the environment (SCALE, SECS, CLIENTS, PAIRS).
source "$(dirname "$0")/lib.sh"
SCALE=${1:-${SCALE:-10}} SECS=${2:-${SECS:-20}} PAIRS=${4:-${PAIRS:-5}}
CLIENTS=$(clients_list "${3:-${CLIENTS:-2 8}}")
SCRIPTS=${SCRIPTS:-tpcb-like select-only}
start_server postgres --set shared_buffers=256MB --set max_connections=200
echo "pgbench-builtin: scale $SCALE, $SECS s per run, clients $CLIENTS, $PAIRS pairs, $TRANSPORT ($(masked "$URL"))"
pgbench -q -i -s "$SCALE" "$URL" >"$WORK/init.out" 2>&1 || die_log "$WORK/init.out" "pgbench -i"
# run_one OUT TOOL... : one run under /usr/bin/time; sets R_TPS and R_CPU.
run_one() {
  local out=$1; shift
  cpu_of "$out.cpu" "$@" >"$out" 2>"$out.err" || { cat "$out.err" >>"$out"; die_log "$out" "$*"; }
  local n
  read -r R_TPS n < <(pgbench_result "$out") || die_log "$out" "reading the report"
  R_CPU=$(cpu_per_tx "$out.cpu" "$n")
}
for i in $(seq 1 "$PAIRS"); do
  for c in $CLIENTS; do
    for s in $SCRIPTS; do
      f=internal/workload/script/parse/builtin/$s.sql
      args=(-M prepared -c "$c" -j "$c" -T "$SECS" -s "$SCALE" -f "$f" "$URL")
      DBGAUGE_PGBENCH_OUT=$WORK/run-$s-$i-$c run_one "$WORK/a-$s-$i-$c" "$DBG" pgbench "${args[@]}"
      at=$R_TPS ac=$R_CPU
      [[ ${WHOLE:-0} == 1 ]] || ac=$(json_get "$WORK/run-$s-$i-$c/results.json" "'%.2f' % r['client_cpu_per_tx_us']")
      run_one "$WORK/b-$s-$i-$c" pgbench "${args[@]}"
      pair "pgbench-builtin-$s" pgbench "$c" "$i" "$at" "$ac" "$R_TPS" "$R_CPU" "$s"
    done
  done
done
for s in $SCRIPTS; do
  summarize "pgbench-builtin-$s" pgbench 1.0 1.0
done
