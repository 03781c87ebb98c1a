# Shared by the bench/ scripts: build, private instances, medians.
# Every script runs dbgauge and its peer on the same private instance,
# interleaved (A B A B ...), and prints the median ratio.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
make -s build
DBG=$PWD/bin/dbgauge
WORK=$(mktemp -d /tmp/dbgauge-bench.XXXXXX)
chmod 755 "$WORK"
SERVERS=()

# start_server ENGINE [--set k=v ...]: starts a private instance and sets
# URL. (Not to be called in $(...): the cleanup must see SERVERS.)
start_server() {
  local engine=$1; shift
  SERVERS+=("$engine")
  URL=$("$DBG" server start "$engine" --dir "$WORK/$engine" "$@" 2>/dev/null)
}

cleanup() {
  for s in "${SERVERS[@]}"; do "$DBG" server stop "$s" --dir "$WORK/$s" >/dev/null 2>&1 || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# median of the arguments
median() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.4f\n", (v[NR/2]+v[NR/2+1])/2}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a/b}'; }

# json_get FILE EXPR: a value from results.json (python3 is on every Debian).
json_get() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

# cpu_seconds PID-less: run a command under /usr/bin/time and print user+sys.
# usage: cpu_of OUTFILE cmd...   (writes "user sys" of the command to OUTFILE)
cpu_of() { local out=$1; shift; /usr/bin/time -f "%U %S" -o "$out" "$@"; }
