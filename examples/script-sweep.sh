#!/usr/bin/env bash
# Your own workload on every engine: the three example scripts
# (examples/scripts: read@5, write@3, report@2, tables made by init.sql at
# each scale) swept by `dbgauge dsbench --workload script` over scales
# 1, 2 and 5 on SQLite, DuckDB and private PostgreSQL, MariaDB and Firebird
# instances, then the same sweep on PostgreSQL from three remote agents
# (`dbgauge agent` processes on loopback). For each run it prints the mix
# test of the per-type table (the commits against the weights, chi-square)
# and checks in results.json that the types' counts add up to the scale's
# transactions (and, for the agents' run, that the nodes' do); the run
# directories, with their pages (report.html), stay under OUT.
#
# Usage: examples/script-sweep.sh [OUT]   (default: script-sweep-runs)
#   From the environment: SCALES (default 1,2,5), CYCLES (3), SECS (5),
#   THREADS (4), ENGINES (default "sqlite duckdb postgres mariadb firebird"),
#   AGENTS (3; 0 skips the agents' run).
source "$(dirname "$0")/../bench/lib.sh"
OUT=$(realpath -m "${1:-script-sweep-runs}")
SCALES=${SCALES:-1,2,5} CYCLES=${CYCLES:-3} SECS=${SECS:-5} THREADS=${THREADS:-4} AGENTS=${AGENTS:-3}
ENGINES=${ENGINES:-sqlite duckdb postgres mariadb firebird}
mkdir -p "$OUT"
S=examples/scripts
sweep=(--workload script --script "$S/read.sql@5" --script "$S/write.sql@3" --script "$S/report.sql@2"
  --init "$S/init.sql" --max-tries 10 --scales "$SCALES" --cycles "$CYCLES" --duration "${SECS}s" --threads "$THREADS")

# check RUN: the mix notes, and the types' counts against the scales'.
check() {
  grep '^scale .*the mix' "$1/per_type.txt" || { echo "$1: no mix test in per_type.txt" >&2; exit 1; }
  python3 - "$1/results.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
bad = 0
for s in r["scales"]:
    types = sum(t["count"] for t in s["types"])
    stmts = {t["name"]: [st["count"] for st in t.get("statements", [])] for t in s["types"]}
    line = "scale %d: %d transactions, types %s add up to %d" % (s["scale"], s["transactions"], {t["name"]: t["count"] for t in s["types"]}, types)
    if types != s["transactions"]:
        bad += 1; line += "  MISMATCH"
    if s.get("node_cycles"):
        nodes = sum(n["transactions"] for nc in s["node_cycles"] for n in nc["nodes"])
        line += "; %d nodes over %d cycles add up to %d" % (len(s["node_cycles"][0]["nodes"]), len(s["node_cycles"]), nodes)
        if nodes != s["transactions"]:
            bad += 1; line += "  MISMATCH"
    print(line)
sys.exit(1 if bad else 0)
PY
}

for engine in $ENGINES; do
  case $engine in
    sqlite) URL="sqlite:$WORK/sweep.db" ;;
    duckdb) URL="duckdb:$WORK/sweep.duckdb" ;;
    *) start_server "$engine" ;;
  esac
  [[ $engine == postgres ]] && PGURL=$URL
  run=$OUT/$engine
  rm -rf "$run"
  echo "== $engine: dsbench --workload script, scales $SCALES"
  "$DBG" dsbench --db "$URL" "${sweep[@]}" --out "$run" >"$run.log" 2>&1 || die_log "$run.log" "the $engine sweep"
  check "$run"
  echo "   page: $run/report.html"
done

if [[ $AGENTS -gt 0 ]]; then
  if [[ -z ${PGURL:-} ]]; then
    start_server postgres
    PGURL=$URL
  fi
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  run=$OUT/postgres-agents
  rm -rf "$run"
  echo "== postgres from $AGENTS agents: dsbench --workload script --nodes $AGENTS"
  bg_start "$run.log" "$DBG" dsbench --db "$PGURL" "${sweep[@]}" --nodes "$AGENTS" --listen "127.0.0.1:$port" --out "$run"
  master=$BG_PID
  for a in $(seq 1 "$AGENTS"); do
    bg_start "$WORK/agent$a.log" "$DBG" agent --master "nats://127.0.0.1:$port" --name "agent$a" --dir "$WORK/agent$a"
  done
  bg_wait "$master" 1800 || die_log "$run.log" "the agents' sweep"
  check "$run"
  echo "   page: $run/report.html"
fi
