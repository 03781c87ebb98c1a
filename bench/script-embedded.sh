#!/usr/bin/env bash
# What dbgauge's client costs on a user's script with an embedded engine:
# bench/scripts/five.sql (five statements in one transaction, on tables
# bench/scripts/init.sql makes) swept by `dsbench --workload script` for one
# cycle of SECS seconds at scale 1 with 2 threads on SQLite (WAL) and
# DuckDB, each run with a CPU profile. Per run: the rate, the client CPU
# per transaction, and the share of the load's CPU time outside the engine
# (bench/cpushare: docs/client-cost.md says how it is counted); per engine
# the median with min and max over RUNS runs. The aim: at most a tenth
# outside.
#
# Usage: bench/script-embedded.sh [SECS] [RUNS]   (defaults 10 and 5; also
#   SECS, RUNS, ENGINES="sqlite duckdb" from the environment)
source "$(dirname "$0")/lib.sh"
SECS=${1:-${SECS:-10}} RUNS=${2:-${RUNS:-5}} ENGINES=${ENGINES:-sqlite duckdb}
go build -o "$WORK/cpushare" ./bench/cpushare
printf '%-7s %3s %10s %12s %9s\n' engine run tps 'client us/tx' outside
for engine in $ENGINES; do
  rows=()
  for i in $(seq 1 "$RUNS"); do
    d=$WORK/$engine$i
    mkdir -p "$d"
    case $engine in
      sqlite) url="sqlite:$d/s.db?_journal_mode=WAL" ;;
      *) url="$engine:$d/db" ;;
    esac
    DBGAUGE_CPUPROFILE=$d/cpu.pprof "$DBG" dsbench --db "$url" --workload script \
      --script bench/scripts/five.sql --init bench/scripts/init.sql --max-tries 100 \
      --scales 1 --cycles 1 --duration "${SECS}s" --threads 2 --out "$d/run" >"$d/log" 2>&1 ||
      die_log "$d/log" "dbgauge dsbench --workload script on $engine"
    share=$(go tool pprof -traces "$DBG" "$d/cpu.pprof" 2>/dev/null | "$WORK/cpushare" | awk '{print $2}')
    tps=$(json_get "$d/run/results.json" "'%.0f' % r['scales'][0]['median_tps']")
    us=$(json_get "$d/run/results.json" "'%.1f' % r['scales'][0]['client_cpu_per_tx_us']")
    printf '%-7s %3d %10s %12s %8s%%\n' "$engine" "$i" "$tps" "${us:--}" "$share"
    rows+=("$share")
  done
  printf '%s\n' "${rows[@]}" | sort -n | awk -v e="$engine" '{v[NR]=$1} END {printf "%-7s median %.1f %% outside [%.1f..%.1f] over %d runs (aim <= 10 %%): %s\n", e, v[int((NR+1)/2)], v[1], v[NR], NR, (v[int((NR+1)/2)] <= 10 ? "met" : "NOT met")}'
done
