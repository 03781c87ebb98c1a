#!/usr/bin/env bash
# Loading N Wisconsin tuples into PostgreSQL: dbgauge (generating the rows as
# it streams them through COPY) against psql's \copy of a ready CSV file of
# the same rows, on one private instance, interleaved A B A B, and the median
# ratio. Only the row transfer is timed on both sides (table created before,
# no indexes, no ANALYZE). Usage: bench/load-postgres.sh [N] [PAIRS]
set -euo pipefail
N=${1:-1000000}
PAIRS=${2:-3}
cd "$(dirname "$0")/.."
make -s build
work=$(mktemp -d /tmp/dbgauge-bench.XXXXXX)
chmod 755 "$work"
url=$(./bin/dbgauge server start postgres --dir "$work/pg" 2>/dev/null)
trap './bin/dbgauge server stop postgres --dir "$work/pg" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
echo "instance: $url"
./bin/dbgauge generate --size "$N" --relation tenktup1 --format csv --output "$work/tenktup1.csv"
ddl=$(cat <<SQL
DROP TABLE IF EXISTS peer_tenktup1;
CREATE TABLE peer_tenktup1 (unique1 integer, unique2 integer, two integer, four integer, ten integer,
 twenty integer, onepercent integer, tenpercent integer, twentypercent integer, fiftypercent integer,
 unique3 integer, evenonepercent integer, oddonepercent integer, stringu1 char(52), stringu2 char(52), string4 char(52));
SQL
)
ratios=()
for i in $(seq 1 "$PAIRS"); do
  # A: dbgauge (reports the seconds of the COPY alone).
  a=$(./bin/dbgauge load --db "$url" --size "$N" --relations tenktup1 --out "$work/run$i" 2>/dev/null | awk -F'\t' '{print $3+0}')
  # B: psql \copy of the ready file, timed by psql around the \copy alone.
  psql -q "$url" -c "$ddl" >/dev/null
  b=$(psql -q "$url" -c '\timing on' -c "\\copy peer_tenktup1 FROM '$work/tenktup1.csv' WITH (FORMAT csv)" | awk '/^Time:/ {print $2/1000}')
  r=$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a/b}')
  ratios+=("$r")
  printf 'pair %d: dbgauge %.3f s, psql \\copy %.3f s, ratio %s\n' "$i" "$a" "$b" "$r"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}')
echo "N=$N: median time ratio dbgauge / psql \\copy = $median (aim: <= 1.2)"
