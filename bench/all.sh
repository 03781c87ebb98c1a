#!/usr/bin/env bash
# Every bench/ comparison of dbgauge with its peer, over TCP loopback and over
# the server's Unix-domain socket, then one summary table: per benchmark,
# transport and client count the median ratio dbgauge/peer of the rate (tps;
# rows/s for the loads) and of the client CPU per transaction (per row), each
# with its min and max over the pairs, the aim, and whether the medians meet
# it. The aims: rate ratio >= 1.0 (TPC-B's procedure form >= 1.3; the loads
# >= 0.83 resp. 0.77, i.e. time ratios <= 1.2 resp. 1.3) and client CPU
# ratio <= 1.0.
#
# Usage: bench/all.sh [SECONDS] [PAIRS]
#   SECONDS per run (default 3: about 15 minutes in all on 2 cores), PAIRS
#   per client count (default 5). From the environment: SECS, PAIRS, CLIENTS
#   (default "2 8"), SCALE (default 10), N (rows of the load, default
#   1000000), TRANSPORTS (default "tcp socket"), BENCHES (default
#   "pgbench-select pgbench-tpcb sysbench-point-select load-postgres
#   pgbench-init pgbench-builtin"; add orders-gotpc, the order-entry workload
#   against go-tpc at W warehouses, default 4, for about 15 minutes more at
#   SECS=30). Every script's own output is shown as it runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export SECS=${1:-${SECS:-3}} PAIRS=${2:-${PAIRS:-5}} CLIENTS=${CLIENTS:-2 8} SCALE=${SCALE:-10} N=${N:-1000000}
TRANSPORTS=${TRANSPORTS:-tcp socket}
BENCHES=${BENCHES:-pgbench-select pgbench-tpcb sysbench-point-select load-postgres pgbench-init pgbench-builtin}
for b in $BENCHES; do
  [[ -f bench/$b.sh ]] || { echo "no bench/$b.sh" >&2; exit 2; }
done
for t in $TRANSPORTS; do
  [[ $t == tcp || $t == socket ]] || { echo "transport $t: use tcp or socket" >&2; exit 2; }
done
top=$(mktemp -d /tmp/dbgauge-bench-all.XXXXXX)
trap 'rm -rf "$top"' EXIT
make -s build
# One binary for every run, whatever is rebuilt meanwhile.
cp bin/dbgauge "$top/dbgauge"
export DBG=$top/dbgauge BENCH_SUMMARY=$top/summary.tsv
: > "$BENCH_SUMMARY"
start=$(date +%s)
failed=()
for b in $BENCHES; do
  for t in $TRANSPORTS; do
    echo
    echo "=== $b over $t"
    socket=0; [[ $t == socket ]] && socket=1
    # The scripts take their settings from the environment (exported above).
    if ! SOCKET=$socket bash "bench/$b.sh"; then
      failed+=("$b over $t")
    fi
  done
done
elapsed=$(( $(date +%s) - start ))
echo
echo "Summary: median ratio dbgauge/peer [min, max] over $PAIRS pairs, $SECS s per run, scale $SCALE, load N=$N ($((elapsed / 60)) min $((elapsed % 60)) s)"
awk -F'\t' '
  function aim(r, c) { return "rate>=" r (c == "-" ? "" : " cpu<=" c) }
  BEGIN {
    printf "%-24s %-9s %7s  %-24s %-24s %-20s %s\n", "benchmark", "transport", "clients", "rate ratio [min, max]", "CPU/tx ratio [min, max]", "aim", "met"
  }
  {
    rate = sprintf("%.3f [%.3f, %.3f]", $5, $6, $7)
    cpu = $8 == "-" ? "-" : sprintf("%.3f [%.3f, %.3f]", $8, $9, $10)
    miss = ""
    if ($5 + 0 < $11 + 0) miss = "rate"
    if ($12 != "-" && $8 != "-" && $8 + 0 > $12 + 0) miss = miss (miss == "" ? "" : ", ") "cpu"
    printf "%-24s %-9s %7s  %-24s %-24s %-20s %s\n", $1, $2, $3, rate, cpu, aim($11, $12), miss == "" ? "yes" : "no (" miss ")"
  }' "$BENCH_SUMMARY"
echo "(rate: tps; rows/s for load-postgres and pgbench-init, whose clients column is 1. CPU/tx: client CPU per transaction, per row for the loads; \"-\": not compared)"
if [[ ${#failed[@]} -gt 0 ]]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
