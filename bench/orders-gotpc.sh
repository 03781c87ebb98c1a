#!/usr/bin/env bash
# The order-entry workload against go-tpc's tpcc on one private MariaDB:
#
# 1. Load time: `dbgauge populate --workload orders --scale W` (its
#    build: drop, load, keys and indexes, as it reports it; its check
#    after the load is left out) against `go-tpc tpcc prepare --warehouses
#    W -T 4 --no-check` (into a database of its own; wall-clock), LOADS
#    times interleaved.
# 2. Each kit's checker on the other's database: go-tpc's `tpcc check`
#    on the database dbgauge loaded, dbgauge's `check` on go-tpc's (go-tpc
#    exits 0 on a failed check: its output is searched for "check failed").
# 3. The run, no waits, at each terminal count of CLIENTS: per pair
#    dbgauge dsbench (it loads W warehouses, then one cycle of SECS) and
#    then go-tpc's `tpcc run -T N --time SECS` on the database dbgauge
#    just ran on (the same tables and indexes, SECS of orders older).
#    The rate compared is New-Order commits per minute: dbgauge's clients'
#    count (the rollbacks left out; results.json figures) against go-tpc's
#    tpmC (its New-Order count per minute). Client CPU per transaction:
#    dbgauge's process during the cycle (results.json), go-tpc's whole
#    process (/usr/bin/time) over the transactions its summary counts.
#
# Usage: bench/orders-gotpc.sh [W] [SECS] [CLIENTS] [PAIRS]
#   defaults: W 4, SECS 30, CLIENTS "4 8", PAIRS 5 (also from the
#   environment: W, SECS, CLIENTS, PAIRS, LOADS (default 1); PAIRS=0 leaves
#   the runs out, LOADS=0 the loads). Needs go-tpc
#   on PATH: go install github.com/pingcap/go-tpc/cmd/go-tpc@v1.0.7
source "$(dirname "$0")/lib.sh"
W=${1:-${W:-4}} SECS=${2:-${SECS:-30}} PAIRS=${4:-${PAIRS:-5}} LOADS=${LOADS:-1}
CLIENTS=$(clients_list "${3:-${CLIENTS:-4 8}}")
command -v go-tpc >/dev/null || { echo "go-tpc not found: go install github.com/pingcap/go-tpc/cmd/go-tpc@v1.0.7" >&2; exit 2; }
start_server mariadb
# go-tpc takes host, port, user and password apart.
read -r GUSER GPASS GHOST GPORT < <(python3 -c "
import sys, urllib.parse as u
p = u.urlparse(sys.argv[1]); print(p.username, p.password or '', p.hostname, p.port)" "$URL")
GOTPC=(-H "$GHOST" -P "$GPORT" -U "$GUSER" -p "$GPASS")
echo "orders-gotpc: $W warehouses, $SECS s per run, terminals $CLIENTS, $PAIRS pairs, $LOADS loads ($(masked "$URL"))"
mysql_exec() { mysql -h "$GHOST" -P "$GPORT" -u "$GUSER" -p"$GPASS" -e "$1" >/dev/null 2>&1; }

# 1. Load time.
RATE_UNIT=s PER=load LOAD_RATIOS=()
for i in $(seq 1 "$LOADS"); do
  "$DBG" populate --db "$URL" --workload orders --scale "$W" >"$WORK/pop$i.out" 2>"$WORK/pop$i.err" ||
    { cat "$WORK/pop$i.err" >>"$WORK/pop$i.out"; die_log "$WORK/pop$i.out" "dbgauge populate"; }
  a=$(sed -n 's/.*, in all \([0-9.]*\) s,.*/\1/p' "$WORK/pop$i.out")
  mysql_exec "DROP DATABASE IF EXISTS gotpc; CREATE DATABASE gotpc" || true
  s1=$(date +%s.%N)
  go-tpc tpcc prepare "${GOTPC[@]}" -D gotpc --warehouses "$W" -T 4 --no-check >"$WORK/prep$i.out" 2>&1 || die_log "$WORK/prep$i.out" "go-tpc tpcc prepare"
  s2=$(date +%s.%N)
  b=$(awk -v a="$s1" -v b="$s2" 'BEGIN {printf "%.1f", b-a}')
  r=$(ratio "$a" "$b")
  LOAD_RATIOS+=("$r")
  echo "load $i: dbgauge populate $a s | go-tpc prepare $b s | ratio $r | load average $(cut -d' ' -f1-3 /proc/loadavg) ($(head -1 "$WORK/pop$i.out"))"
done
if [[ $LOADS -gt 0 ]]; then
  echo "loads, $LOADS pairs: median ratio of the times dbgauge/go-tpc $(printf '%s\n' "${LOAD_RATIOS[@]}" | sort -g |
    awk '{x[NR] = $1} END {m = NR % 2 ? x[(NR+1)/2] : (x[NR/2] + x[NR/2+1]) / 2; printf "%.3f [%s, %s] (below 1: dbgauge loads faster)", m, x[1], x[NR]}')"
fi

# 2. Each checker on the other's database (CHECKS=0 leaves it out: go-tpc's
# check reads every warehouse's conditions 1-12, minutes at a few).
if [[ ${CHECKS:-1} != 0 ]]; then
go-tpc tpcc check "${GOTPC[@]}" -D dbgauge --warehouses "$W" >"$WORK/gcheck.out" 2>&1 || true
if grep -qi "check failed" "$WORK/gcheck.out"; then
  echo "go-tpc tpcc check on dbgauge's database: FAILED"; grep -i "check failed" "$WORK/gcheck.out" | head -5
else
  echo "go-tpc tpcc check on dbgauge's database: passed ($(grep -ci 'check' "$WORK/gcheck.out") lines of checks)"
fi
gurl=${URL%/*}/gotpc
if "$DBG" check --db "$gurl" --workload orders --scale "$W" --after-load >"$WORK/dcheck.out" 2>&1; then
  echo "dbgauge check --after-load on go-tpc's database: $(tail -1 "$WORK/dcheck.out")"
else
  echo "dbgauge check --after-load on go-tpc's database: FAILED"; head -5 "$WORK/dcheck.out"
fi
fi

# 3. The runs.
RATE_UNIT=NO/min PER=tx
for i in $(seq 1 "$PAIRS"); do
  for c in $CLIENTS; do
    name=run-$i-$c
    "$DBG" dsbench --db "$URL" --workload orders --scales "$W" --cycles 1 --duration "${SECS}s" --threads "$c" --retry --prepare \
      --out "$WORK/$name" >"$WORK/$name.log" 2>&1 || die_log "$WORK/$name.log" "dbgauge dsbench --workload orders"
    read -r at ac < <(json_get "$WORK/$name/results.json" "(lambda s: '%.1f %.2f' % (
      next(f['scale'] for f in s['figures'] if f['name'] == 'new orders per minute (clients)'), s['client_cpu_per_tx_us']))(r['scales'][0])") ||
      die_log "$WORK/$name.log" "reading dbgauge's results.json"
    cpu_of "$WORK/g$name.cpu" go-tpc tpcc run "${GOTPC[@]}" -D dbgauge --warehouses "$W" -T "$c" --time "${SECS}s" >"$WORK/g$name.out" 2>&1 ||
      die_log "$WORK/g$name.out" "go-tpc tpcc run"
    bt=$(awk '/^tpmC:/ {gsub(",", "", $2); print $2}' "$WORK/g$name.out")
    n=$(awk '/^\[Summary\]/ && !/_ERR/ {for (i = 1; i <= NF; i++) if ($i == "Count:") {gsub(",", "", $(i+1)); s += $(i+1)}} END {print s + 0}' "$WORK/g$name.out")
    [[ -n $bt && $n -gt 0 ]] || die_log "$WORK/g$name.out" "reading go-tpc's summary"
    pair orders-gotpc go-tpc "$c" "$i" "$at" "$ac" "$bt" "$(cpu_per_tx "$WORK/g$name.cpu" "$n")"
  done
done
if [[ $PAIRS -gt 0 ]]; then summarize orders-gotpc go-tpc 1.0 1.0; fi
