#!/usr/bin/env bash
# What watching a run costs it: the same dsbench sweep on one private
# PostgreSQL instance, once unwatched and once watched live from two
# browser tabs (two headless Chromium processes, each with the run's live
# page of `dbgauge ui` open, its charts updating every second, for the
# whole run). Interleaved in pairs, alternating which side goes first (odd
# pairs unwatched first). `dbgauge ui` serves both sides' directory for the
# whole bench, so the only difference is the two open pages. The browsers
# start before the watched run (their start-up is not the cost of
# watching), on the run's live page, which waits for the run to appear. Prints per
# pair both sides' transactions (the sweep's total from results.json), the
# ratio watched/unwatched, then the median ratio with min and max (aim:
# >= 0.99, i.e. watching costs the run less than 1 % of its transactions).
#
# The browsers share the 2 CPUs with the run and the server, as they would
# on a workstation: the figure includes their rendering.
#
# Usage: [MODE=select] bench/ui-watch.sh [MINUTES] [PAIRS]
#   defaults: MINUTES 10 (the sweep's length: scales 1,2,5 of 5 cycles each,
#   cycles of MINUTES*60/15 s less a little for population), PAIRS 5,
#   THREADS 4 (environment), MODE select (--mode select --prepare) or tpcb.
source "$(dirname "$0")/lib.sh"
MINUTES=${1:-${MINUTES:-10}} PAIRS=${2:-${PAIRS:-5}}
THREADS=${THREADS:-4} MODE=${MODE:-select}
for v in MINUTES PAIRS THREADS; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "$v=${!v}: give a positive whole number" >&2; exit 2; }
done
[[ $MODE == select || $MODE == tpcb ]] || { echo "MODE=$MODE: use select or tpcb" >&2; exit 2; }
BROWSER=$(command -v chromium || command -v chromium-browser) ||
  { echo "chromium not found: install Debian's chromium package" >&2; exit 2; }
SCALES=1,2,5 CYCLES=5
# Seconds the browsers get to start before a watched run starts (the
# unwatched side waits as long, so that both start alike).
SETTLE=${SETTLE:-10}
# 15 cycles; population and checks take the rest of the minutes.
SECS=$((MINUTES * 60 * 9 / 10 / 15))
LIMIT=$((MINUTES * 60 * 2 + 120))
ISO=()
if [[ $MODE == tpcb ]]; then ISO=(--isolation read-committed); fi
start_server postgres --set shared_buffers=256MB --set max_connections=200
SAME=(--db "$URL" --mode "$MODE" --prepare --scales "$SCALES" --cycles "$CYCLES" --duration "${SECS}s"
  --threads "$THREADS" ${ISO[@]+"${ISO[@]}"})
RUNS=$WORK/runs
mkdir -p "$RUNS"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
bg_start "$WORK/ui.log" "$DBG" ui --listen "127.0.0.1:$PORT" --dir "$RUNS"
for i in $(seq 50); do grep -q "dbgauge ui:" "$WORK/ui.log" && break; sleep 0.1; done
grep -q "dbgauge ui:" "$WORK/ui.log" || die_log "$WORK/ui.log" "dbgauge ui"
echo "ui-watch: $MODE --prepare${ISO[*]+ ${ISO[*]}}, scales $SCALES, $CYCLES cycles of $SECS s, $THREADS threads, $PAIRS pairs (odd: unwatched first), $TRANSPORT ($(masked "$URL")); watched = 2 headless Chromium pages of http://127.0.0.1:$PORT/runs/NAME/live"

# total NAME: sets R_TX, the sweep's committed transactions in results.json.
total() {
  R_TX=$(json_get "$RUNS/$1/results.json" "sum(s['transactions'] for s in r['scales'])" 2>>"$WORK/$1.log") ||
    die_log "$WORK/$1.log" "reading results.json of $1"
}

# sweep NAME [TABS]: one run; with TABS, that many browser pages are
# opened on its live page first (a page for a run not yet on disk waits
# and reloads), and the run starts once their start-up is over: what is
# measured is the cost of watching, not of starting a browser.
sweep() {
  local name=$1 tabs=${2:-0} run t pids=()
  for t in $(seq "$tabs"); do
    bg_start "$WORK/$name-tab$t.log" "$BROWSER" --headless --no-sandbox --disable-gpu --no-first-run \
      --disable-background-networking --user-data-dir="$WORK/$name-profile$t" "http://127.0.0.1:$PORT/runs/$name/live"
    pids+=("$BG_PID")
  done
  sleep "$SETTLE"
  bg_start "$WORK/$name.log" "$DBG" dsbench "${SAME[@]}" --out "$RUNS/$name"
  run=$BG_PID
  bg_wait "$run" "$LIMIT" || die_log "$WORK/$name.log" "dbgauge dsbench (exit $?)"
  for t in ${pids[@]+"${pids[@]}"}; do kill -TERM "$t" 2>/dev/null || true; bg_wait "$t" 10 || true; done
  total "$name"
}

for i in $(seq 1 "$PAIRS"); do
  if ((i % 2)); then
    sweep "u$i"; ut=$R_TX
    sweep "w$i" 2; wt=$R_TX
  else
    sweep "w$i" 2; wt=$R_TX
    sweep "u$i"; ut=$R_TX
  fi
  RATE_UNIT=tx pair ui-watch unwatched "$THREADS" "$i" "$wt" - "$ut" - "watched by 2 tabs"
done
RATE_UNIT=tx summarize ui-watch unwatched 0.99 -
