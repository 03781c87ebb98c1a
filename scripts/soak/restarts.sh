#!/usr/bin/env bash
# Soak test: a DSBENCH sweep that must survive server restarts.
#
# Starts a private PostgreSQL with `dbgauge server start`, runs a TPC-B
# sweep over several scales with --retry --reconnect for about MINUTES
# minutes, restarts the server RESTARTS times while cycles run (fast stop,
# GAP seconds down, start on the same port), and between the restarts
# spikes the client machine's load with busy loops for SPIKE seconds. Then
# it checks the run directory with jq and grep:
#   - dbgauge exited 0 and results.json says complete: true;
#   - every scale is consistent and kept all its cycles, each with commits
#     (no cycle lost; the restarts cost only the transactions in flight);
#   - every restart is visible in results.json: a cycle whose faults
#     (failed trials by class, reconnects, check faults) cover its time;
#   - results.txt and report.html name the faults.
# It prints one line per check and exits 0 when all pass, 1 otherwise.
#
# Usage: scripts/soak/restarts.sh [MINUTES [WORKDIR]]
#   MINUTES  length of the sweep (default 30; 3 checks the script quickly)
#   WORKDIR  where the server, the run and the logs go (default a new
#            directory under /tmp)
# Environment: DBGAUGE (the binary; default: built from this checkout),
# SCALES (default 1,2,5,10), THREADS (default 4), RESTARTS (default 3),
# GAP (seconds down, default 0.3), SPIKE (seconds of load, default 20),
# SPIKE_LOOPS (busy loops, default the number of CPUs).
set -euo pipefail

minutes=${1:-30}
work=${2:-$(mktemp -d /tmp/dbgauge-soak.XXXXXX)}
scales=${SCALES:-1,2,5,10}
threads=${THREADS:-4}
restarts=${RESTARTS:-3}
gap=${GAP:-0.3}
spike=${SPIKE:-20}
loops=${SPIKE_LOOPS:-$(nproc)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)

say() { echo "$(date -u +%H:%M:%S) $*"; }

bin=${DBGAUGE:-}
if [ -z "$bin" ]; then
  bin="$work/dbgauge"
  (cd "$here" && go build -o "$bin" ./cmd/dbgauge)
fi

# The sweep's shape: cycles per scale grow with the length; the cycles fill
# 97% of it (population, checks and restarts take the rest: 15 s of a
# 25-minute sweep here).
nscales=$(tr ',' '\n' <<<"$scales" | wc -l)
cycles=$(( minutes >= 12 ? minutes / 4 : 3 ))
duration=$(( minutes * 60 * 97 / 100 / (nscales * cycles) ))
[ "$duration" -ge 5 ] || duration=5

# A fixed port: the restarted server must come back where the clients look.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
srv="$work/server"
run="$work/run"
log="$work/dsbench.err"
spikes=()
cleanup() {
  for p in "${spikes[@]}"; do kill "$p" 2>/dev/null || true; done
  "$bin" server stop postgres --dir "$srv" >/dev/null 2>&1 || true
}
trap cleanup EXIT

url=$("$bin" server start postgres --dir "$srv" --port "$port" 2>/dev/null)
say "server: $url; sweep: scales $scales, $cycles cycles of ${duration}s, $threads threads, --retry --reconnect; $restarts restarts ${gap}s down; run directory $run"

start=$(date +%s)
"$bin" dsbench --db "$url" --mode tpcb --scales "$scales" --cycles "$cycles" --duration "${duration}s" \
  --threads "$threads" --retry --reconnect --out "$run" >"$work/dsbench.out" 2>"$log" &
pid=$!

# waitcycle waits for a progress line, newer than line $1 of the log, of a
# cycle less than 70% done: the restart then falls inside a cycle.
waitcycle() {
  local from=$1
  while kill -0 "$pid" 2>/dev/null; do
    if tail -n +"$((from + 1))" "$log" | grep -Eq 'cycle [0-9]+/[0-9]+ +([0-9]|[1-6][0-9])%'; then
      return 0
    fi
    sleep 0.5
  done
  return 1
}

# spikeload runs busy loops for $spike seconds, bounded by timeout.
spikeload() {
  say "load spike: $loops busy loops for ${spike}s"
  for _ in $(seq "$loops"); do
    timeout "$spike" sh -c 'while :; do :; done' &
    spikes+=($!)
  done
}

total=$(( minutes * 60 ))
times=()
for k in $(seq "$restarts"); do
  # Restart k at k/(restarts+1) of the sweep, a load spike half way to it.
  at=$(( start + total * k / (restarts + 1) ))
  spike_at=$(( at - total / (2 * (restarts + 1)) ))
  while [ "$(date +%s)" -lt "$spike_at" ] && kill -0 "$pid" 2>/dev/null; do sleep 1; done
  kill -0 "$pid" 2>/dev/null && spikeload
  while [ "$(date +%s)" -lt "$at" ] && kill -0 "$pid" 2>/dev/null; do sleep 1; done
  if ! waitcycle "$(wc -l <"$log")"; then
    say "the sweep ended before restart $k"
    break
  fi
  t=$(date +%s)
  "$bin" server stop postgres --dir "$srv" >/dev/null 2>&1
  sleep "$gap"
  "$bin" server start postgres --dir "$srv" --port "$port" >/dev/null 2>&1
  times+=("$t")
  say "restart $k: stopped at $(date -u -d @"$t" +%H:%M:%S), down ${gap}s, started again"
done

set +e
wait "$pid"
code=$?
set -e
say "dbgauge dsbench exited $code after $(( $(date +%s) - start )) s"

fail=0
check() { # check NAME COMMAND...: one line, PASS or FAIL
  if "${@:2}" >/dev/null 2>&1; then say "PASS $1"; else say "FAIL $1"; fail=1; fi
}
res="$run/results.json"
check "exit code 0" test "$code" -eq 0
check "results.json complete" jq -e '.complete == true' "$res"
check "every scale consistent" jq -e '[.scales[].consistent] | all' "$res"
check "every scale kept all $cycles cycles, each with commits" \
  jq -e --argjson n "$cycles" '[.scales[] | (.cycles | length) == $n and all(.cycles[]; . > 0)] | all' "$res"
check "all scales ran" jq -e --argjson n "$nscales" '.scales | length == $n' "$res"
for t in "${times[@]}"; do
  # The cycle whose span (or the check just after it) holds the restart
  # lists faults of the connection or the server.
  check "restart at $(date -u -d @"$t" +%H:%M:%S) visible in results.json" jq -e --argjson t "$t" \
    '[.scales[].faults[]? | select((.start | fromdateiso8601) - 2 <= $t and $t <= (.end | fromdateiso8601) + 30)] | length > 0' "$res"
done
check "$restarts restarts made" test "${#times[@]}" -eq "$restarts"
check "results.txt names the faults" grep -q 'faults in' "$run/results.txt"
check "report.html has the faults section" grep -q 'Faults of the connection and the server' "$run/report.html"

say "faults per cycle (scale, cycle, start, failed trials by class, reconnects, in doubt, check faults):"
jq -r '.scales[] | .scale as $s | .faults[]? | "  scale \($s) cycle \(.cycle) \(.start): \(.errors // {} | tojson) reconnects \(.reconnects // 0) in_doubt \(.in_doubt // 0) check \(.check_errors // {} | tojson)"' "$res"
jq -r '.scales[] | "  scale \(.scale): median \(.median_tps) tps, cycles \(.cycles | map(floor)), \(.transactions) transactions, \(.failed) failed, consistent \(.consistent)"' "$res"
if [ "$fail" -eq 0 ]; then say "soak passed"; else say "soak FAILED (log: $log)"; fi
exit "$fail"
