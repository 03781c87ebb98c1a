#!/usr/bin/env bash
# Loading N Wisconsin tuples into PostgreSQL: dbgauge load (generating the
# rows as it streams them through COPY) against psql's \copy of a ready CSV
# file of the same rows, on one private instance, interleaved dbgauge, psql,
# dbgauge, psql, ... Only the row transfer is timed on both sides (table
# created before, no indexes, no ANALYZE). Prints per pair each side's rows
# per second and client CPU per row (user + sys of the whole dbgauge load and
# psql processes, from /usr/bin/time: dbgauge's includes generating the rows,
# psql's reading the file: no aim, since the two do different work), and the
# median ratio dbgauge/psql with its min and max (aim: a rows/s ratio of 0.83
# or more, i.e. a time ratio of 1.2 or less).
#
# Usage: [SOCKET=1] bench/load-postgres.sh [N] [PAIRS]
#   defaults: N 1000000, PAIRS 5; also from the environment (N, PAIRS).
#   SOCKET=1: both connect through the instance's Unix-domain socket instead of
#   TCP loopback (psql gets the same libpq URL as dbgauge).
source "$(dirname "$0")/lib.sh"
N=${1:-${N:-1000000}} PAIRS=${2:-${PAIRS:-5}}
RATE_UNIT=rows/s PER=row
start_server postgres --set shared_buffers=256MB
echo "load-postgres: N=$N, $PAIRS pairs, $TRANSPORT ($(masked "$URL"))"
"$DBG" generate --size "$N" --relation tenktup1 --format csv --output "$WORK/tenktup1.csv" 2>"$WORK/generate.err" ||
  die_log "$WORK/generate.err" "dbgauge generate"
ddl=$(cat <<SQL
DROP TABLE IF EXISTS peer_tenktup1;
CREATE TABLE peer_tenktup1 (unique1 integer, unique2 integer, two integer, four integer, ten integer,
 twenty integer, onepercent integer, tenpercent integer, twentypercent integer, fiftypercent integer,
 unique3 integer, evenonepercent integer, oddonepercent integer, stringu1 char(52), stringu2 char(52), string4 char(52));
SQL
)
for i in $(seq 1 "$PAIRS"); do
  # dbgauge: reports the seconds of the COPY alone.
  a=$WORK/a$i
  cpu_of "$a.cpu" "$DBG" load --db "$URL" --size "$N" --relations tenktup1 --out "$a" >"$a.out" 2>"$a.err" || die_log "$a.err" "dbgauge load"
  as=$(awk -F'\t' 'NR == 1 {print $3 + 0}' "$a.out")
  # psql: \copy of the ready file, timed by psql around the \copy alone.
  psql -q -v ON_ERROR_STOP=1 "$URL" -c "SET client_min_messages = warning" -c "$ddl" >"$WORK/ddl.out" 2>&1 || die_log "$WORK/ddl.out" "psql (create table)"
  b=$WORK/b$i
  cpu_of "$b.cpu" psql -q "$URL" -c '\timing on' -c "\\copy peer_tenktup1 FROM '$WORK/tenktup1.csv' WITH (FORMAT csv)" >"$b.out" 2>&1 ||
    die_log "$b.out" "psql \\copy"
  bs=$(awk '/^Time:/ {print $2 / 1000}' "$b.out")
  pair load-postgres psql 1 "$i" "$(awk -v n="$N" -v s="$as" 'BEGIN {printf "%.1f", n/s}')" "$(cpu_per_tx "$a.cpu" "$N")" \
    "$(awk -v n="$N" -v s="$bs" 'BEGIN {printf "%.1f", n/s}')" "$(cpu_per_tx "$b.cpu" "$N")"
done
summarize load-postgres psql 0.83 -
