#!/usr/bin/env bash
# What distributing the load costs: the same total clients from one local
# node (dbgauge dsbench --nodes 1 --threads 2T) and from two agents on
# loopback (dbgauge agent --name a and b, T threads each, under dsbench
# --nodes 2 --threads T --listen 127.0.0.1:PORT), with the same scale,
# cycles, duration and mode, on one private PostgreSQL instance. Interleaved
# in pairs, alternating which side goes first (odd pairs local first, even
# pairs the agents first); both agents are started afresh for every pair, on
# a free port. Prints per pair both sides' tps (median_tps of the scale in
# results.json) and CPU per committed transaction of all the dbgauge
# processes of a run (user + sys from /usr/bin/time over the whole process:
# master and agents, resp. the local process; population and checks
# included, the same on both sides), the ratio distributed/local, and then
# the median ratio with its min and max (aim: tps ratio >= 0.95, i.e.
# distribution costs little).
#
# On this machine the agents share the CPUs with the master and the server,
# which a local run does not have to: the figure is an upper bound of the
# cost on separate machines.
#
# Usage: [SOCKET=1] [MODE=select] [CYCLES=5] bench/nodes.sh [SCALE] [SECONDS] [THREADS] [PAIRS]
#   defaults: SCALE 1, SECONDS 3 per cycle, THREADS 2 per agent (local:
#   twice as many), PAIRS 5, CYCLES 5 per run, MODE select (--mode select
#   --prepare) or tpcb (--mode tpcb --prepare --isolation read-committed;
#   a scale of 10 keeps the clients from queueing on one branch row); each
#   may also come from the environment (SCALE, SECS, THREADS, PAIRS).
#   SOCKET=1: every node connects through the instance's Unix-domain socket.
source "$(dirname "$0")/lib.sh"
SCALE=${1:-${SCALE:-1}} SECS=${2:-${SECS:-3}} THREADS=${3:-${THREADS:-2}} PAIRS=${4:-${PAIRS:-5}}
CYCLES=${CYCLES:-5} MODE=${MODE:-select}
for v in SCALE THREADS PAIRS CYCLES; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "$v=${!v}: give a positive whole number" >&2; exit 2; }
done
[[ $SECS =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "SECONDS=$SECS: give the seconds of a cycle, e.g. 3" >&2; exit 2; }
[[ $MODE == select || $MODE == tpcb ]] || { echo "MODE=$MODE: use select or tpcb" >&2; exit 2; }
CLIENTS=$((2 * THREADS))
# A run's bound: population, the cycles with their checks, the agents'
# registration; far more than any healthy run takes.
LIMIT=$((120 + 3 * CYCLES * ${SECS%.*}))
# TPC-B under READ COMMITTED, pgbench's isolation: under repeatable read at a
# small scale most attempts fail on the branch row, and the rate is the
# conflicts', not the clients'.
ISO=()
if [[ $MODE == tpcb ]]; then ISO=(--isolation read-committed); fi
start_server postgres --set shared_buffers=256MB --set max_connections=200
echo "nodes: $MODE --prepare${ISO[*]+ ${ISO[*]}}, scale $SCALE, $CYCLES cycles of $SECS s per run, $CLIENTS clients (local: 1 node x $CLIENTS threads; distributed: 2 agents x $THREADS threads), $PAIRS pairs (odd: local first, even: agents first), $TRANSPORT ($(masked "$URL"))"
# Every process runs under /usr/bin/time, which writes its "user sys" CPU
# seconds to the file named next (cpu_of's form, as a command bg_start can
# run).
TIMED=(/usr/bin/time -f "%U %S" -o)
SAME=(--db "$URL" --mode "$MODE" --prepare --scales "$SCALE" --cycles "$CYCLES" --duration "${SECS}s" ${ISO[@]+"${ISO[@]}"})

# run_result NAME CPUFILES...: sets R_TPS (median_tps of the scale) and R_CPU
# (microseconds of the processes' CPU per committed transaction).
run_result() {
  local name=$1 n; shift
  read -r R_TPS n < <(json_get "$WORK/$name/results.json" \
    "(lambda s: '%.1f %d' % (s['median_tps'], s['transactions']))(r['scales'][0])" 2>>"$WORK/$name.log") ||
    die_log "$WORK/$name.log" "reading results.json of $name"
  R_CPU=$(cat "$@" | awk -v n="$n" '{c += $1 + $2} END {printf "%.2f", c * 1e6 / n}')
}

# local_run NAME: dsbench as one local node of 2T threads.
local_run() {
  local name=$1
  bg_start "$WORK/$name.log" "${TIMED[@]}" "$WORK/$name.cpu" "$DBG" dsbench "${SAME[@]}" --nodes 1 --threads "$CLIENTS" --out "$WORK/$name"
  bg_wait "$BG_PID" "$LIMIT" || die_log "$WORK/$name.log" "dbgauge dsbench --nodes 1 (exit $?)"
  run_result "$name" "$WORK/$name.cpu"
}

# distributed_run NAME: two fresh agents a and b on a free loopback port, and
# dsbench --nodes 2 of T threads each; every process must end by itself and
# exit 0.
distributed_run() {
  local name=$1 port a b
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  bg_start "$WORK/$name-a.log" "${TIMED[@]}" "$WORK/$name-a.cpu" "$DBG" agent --master "nats://127.0.0.1:$port" --name a --wait 1m --dir "$WORK/$name-a"
  a=$BG_PID
  bg_start "$WORK/$name-b.log" "${TIMED[@]}" "$WORK/$name-b.cpu" "$DBG" agent --master "nats://127.0.0.1:$port" --name b --wait 1m --dir "$WORK/$name-b"
  b=$BG_PID
  bg_start "$WORK/$name.log" "${TIMED[@]}" "$WORK/$name.cpu" "$DBG" dsbench "${SAME[@]}" --nodes 2 --threads "$THREADS" \
    --listen "127.0.0.1:$port" --agent-timeout 1m --out "$WORK/$name"
  bg_wait "$BG_PID" "$LIMIT" || die_log "$WORK/$name.log" "dbgauge dsbench --nodes 2 (exit $?)"
  # An agent exits when the master ends the run.
  bg_wait "$a" 30 || die_log "$WORK/$name-a.log" "dbgauge agent a (exit $?)"
  bg_wait "$b" 30 || die_log "$WORK/$name-b.log" "dbgauge agent b (exit $?)"
  run_result "$name" "$WORK/$name.cpu" "$WORK/$name-a.cpu" "$WORK/$name-b.cpu"
}

for i in $(seq 1 "$PAIRS"); do
  if ((i % 2)); then
    local_run "l$i"; lt=$R_TPS lc=$R_CPU
    distributed_run "d$i"
  else
    distributed_run "d$i"; dt=$R_TPS dc=$R_CPU
    local_run "l$i"; lt=$R_TPS lc=$R_CPU
    R_TPS=$dt R_CPU=$dc
  fi
  pair nodes local "$CLIENTS" "$i" "$R_TPS" "$R_CPU" "$lt" "$lc" "2 agents"
done
summarize nodes local 0.95 -
awk -F'\t' '$1 == "nodes" {print $8}' "$PAIRS_FILE" | sort -g |
  awk '{x[++n] = $1} END {m = n % 2 ? x[(n+1)/2] : (x[n/2] + x[n/2+1]) / 2
    printf "median tps ratio distributed/local %.3f: %s\n", m, m >= 0.95 ? ">= 0.95, distribution costs little" : "below 0.95"}'
