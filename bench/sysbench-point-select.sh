#!/usr/bin/env bash
# Point selects on MariaDB: dbgauge dsbench --mode select --prepare (one
# account row by its key per transaction) against sysbench oltp_point_select
# (one row of sbtest1 by its key per event, autocommit), with a table of the
# same row count (SCALE x 100,000), the same threads and duration (dbgauge
# --threads N of one connection each; sysbench --threads=N), prepared
# statements on both sides (sysbench's --db-ps-mode=auto, its default, given
# explicitly) and uniformly drawn keys (sysbench --rand-type=uniform; its
# default is a hot-spot distribution), on one private instance, interleaved
# dbgauge, sysbench, dbgauge, sysbench, ... at every client count. Prints per
# pair each side's tps and client CPU per transaction (dbgauge's from
# results.json, sysbench's user + sys from /usr/bin/time over its events), and
# per client count the median ratio dbgauge/sysbench with its min and max.
#
# Usage: [SOCKET=1] bench/sysbench-point-select.sh [SCALE] [SECONDS] [CLIENTS] [PAIRS]
#   defaults: SCALE 10, SECONDS 20 per run, CLIENTS "2 8", PAIRS 5; each may
#   also come from the environment (SCALE, SECS, CLIENTS, PAIRS).
#   SOCKET=1: both connect through the instance's Unix-domain socket instead of
#   TCP loopback (dbgauge mysql://root:PASSWORD@unix(SOCKET)/dbgauge, sysbench
#   --mysql-socket=SOCKET).
source "$(dirname "$0")/lib.sh"
SCALE=${1:-${SCALE:-10}} SECS=${2:-${SECS:-20}} PAIRS=${4:-${PAIRS:-5}}
CLIENTS=$(clients_list "${3:-${CLIENTS:-2 8}}")
start_server mariadb --set innodb_buffer_pool_size=1G --set max_connections=200
echo "sysbench-point-select: scale $SCALE ($((SCALE * 100000)) rows), $SECS s per run, clients $CLIENTS, $PAIRS pairs, $TRANSPORT ($(masked "$URL"))"
if [[ $SOCKET == 1 ]]; then
  sock=${URL#*unix(}; sock=${sock%%)*}
  conn=(--mysql-socket="$sock")
else
  hostport=${URL#*@}; hostport=${hostport%%/*}
  conn=(--mysql-host="${hostport%:*}" --mysql-port="${hostport##*:}")
fi
# The instance's password, from its URL: sysbench takes it on its command
# line only (a private instance on loopback, for the length of the bench).
pw=${URL#*://root:}; pw=${pw%%@*}
SB=(sysbench oltp_point_select --db-driver=mysql "${conn[@]}" --mysql-user=root --mysql-password="$pw" --mysql-db=dbgauge
    --tables=1 --table-size=$((SCALE * 100000)) --db-ps-mode=auto --rand-type=uniform --time="$SECS" --report-interval=0)
"${SB[@]}" --threads=2 prepare >"$WORK/prepare.out" 2>&1 || die_log "$WORK/prepare.out" "sysbench prepare"
for i in $(seq 1 "$PAIRS"); do
  for c in $CLIENTS; do
    dsbench "a$i-$c" "$c" --mode select --prepare --scales "$SCALE" --duration "${SECS}s"
    b=$WORK/b$i-$c
    cpu_of "$b.cpu" "${SB[@]}" --threads="$c" run >"$b.out" 2>&1 || die_log "$b.out" "sysbench run"
    read -r bt bn < <(awk '/transactions:/ {n = $2; gsub(/[(]/, "", $3); print $3, n; exit}' "$b.out")
    [[ -n ${bn:-} ]] || die_log "$b.out" "reading sysbench's transactions"
    pair sysbench-point-select sysbench "$c" "$i" "$A_TPS" "$A_CPU" "$bt" "$(cpu_per_tx "$b.cpu" "$bn")"
  done
done
summarize sysbench-point-select sysbench 1.0 1.0
