#!/usr/bin/env bash
# EXPERIMENT for issue 31 (many sessions per load thread), not part of
# bench/all.sh: the client-path candidates measured against pgbench at many
# sessions, select-only prepared on one private PostgreSQL (scale SCALE,
# max_connections 1100), as docs/client-cost.md ("Many sessions: the
# candidates measured") reports them. The candidates:
#   a  dbgauge dsbench --mode select --prepare --threads N: today's path, one
#      OS thread per session blocked in the kernel (internal/driver/iopath.go)
#   b  the same with DBGAUGE_EXPERIMENT_NETPOLL=2: the sessions' sockets on
#      Go's poller, sessions as plain goroutines on 2 Ps (NETPOLL_PS=P for
#      another count)
#      (internal/dbms/blockio/experiment_netpoll.go)
#   c  bench/epollpg -j 2: 2 OS threads, each driving its sessions' state
#      machines over non-blocking sockets with one epoll_wait per batch
#   p2 pgbench -n -S -M prepared -c N -j 2
#   pN pgbench -n -S -M prepared -c N -j N
#
# Usage: bench/many-candidates.sh PHASE [CLIENTS] [PAIRS]
#   PHASE pairs:  PAIRS interleaved rounds (a b c p2 pN) of SECS seconds at
#                 each client count: tps and client CPU per transaction
#                 (dbgauge: results.json's cycle CPU; pgbench: /usr/bin/time;
#                 epollpg: getrusage over its run)
#   PHASE perf:   once per candidate and client count, perf stat attached for
#                 WINDOW seconds in the steady state: task-clock, context
#                 switches, migrations and system calls, per transaction
#                 (transactions = the window's writes, one per transaction
#                 for every candidate); the machine's CPU per transaction
#                 over the window; the process's resident memory and threads
#   PHASE record: perf record -a -g over each candidate's run (give SECS 30:
#                 dsbench populates first); the top functions of the
#                 candidate's process in the middle of the record
#   Environment: SCALE (10), SECS (8; give perf 12 or more, so that the
#   window falls inside the load, and record 30), WINDOW (4), CANDIDATES
#   ("a b c p2 pN"), NETPOLL_PS (2), EVENTS (perf's events: the default is
#   all of them; fewer for a thousand threads, with the write counts kept),
#   DBG (the dbgauge binary, as for every bench/ script)
source "$(dirname "$0")/lib.sh"
PHASE=${1:?give a phase: pairs, perf or record}
CLIENTS=$(clients_list "${2:-64 256}") PAIRS=${3:-3}
SCALE=${SCALE:-10} SECS=${SECS:-8} WINDOW=${WINDOW:-4} CANDIDATES=${CANDIDATES:-a b c p2 pN}
EPOLLPG=$WORK/epollpg
go build -o "$EPOLLPG" ./bench/epollpg
ulimit -n 20000
start_server postgres --set shared_buffers=256MB --set max_connections=1100
pgbench -q -i -s "$SCALE" "$URL" >"$WORK/init.out" 2>&1 || die_log "$WORK/init.out" "pgbench -i"
echo "many-candidates $PHASE: scale $SCALE, clients $CLIENTS, $(uptime)"

# start CANDIDATE N SECONDS OUT: starts one candidate in the background for
# SECONDS and sets BG_PID (the process doing the load).
start() {
  local cand=$1 n=$2 s=$3 out=$4
  case $cand in
    a) bg_start "$out" "$DBG" dsbench --db "$URL" --cycles 1 --threads "$n" --out "$out.d" --mode select --prepare --scales "$SCALE" --duration "${s}s" ;;
    b) DBGAUGE_EXPERIMENT_NETPOLL=${NETPOLL_PS:-2} bg_start "$out" "$DBG" dsbench --db "$URL" --cycles 1 --threads "$n" --out "$out.d" --mode select --prepare --scales "$SCALE" --duration "${s}s" ;;
    c) bg_start "$out" "$EPOLLPG" -url "$URL" -c "$n" -j 2 -T "$s" -scale "$SCALE" ;;
    p2) bg_start "$out" pgbench -n -S -M prepared -c "$n" -j 2 -T "$s" "$URL" ;;
    pN) bg_start "$out" pgbench -n -S -M prepared -c "$n" -j "$n" -T "$s" "$URL" ;;
  esac
}

# tps_of CANDIDATE OUT: the run's rate.
tps_of() {
  case $1 in
    a | b) json_get "$2.d/results.json" "'%.1f' % r['scales'][0]['median_tps']" ;;
    c) awk '{print $2}' "$2" ;;
    *) pgbench_result "$2" | awk '{print $1}' ;;
  esac
}

# steady N OUT: waits until N client sessions are connected (and the load
# has begun), at most a minute; dsbench's only after it has populated (its
# population opens sessions of its own).
steady() {
  local i c
  for i in $(seq 600); do
    if [[ $2 == */perf-[ab]-* || $2 == */rec-[ab]-* ]] && ! grep -q 'populated in' "$2"; then sleep 0.1; continue; fi
    c=$(psql -Atqc "select count(*) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()" "$URL" 2>/dev/null || echo 0)
    ((c >= $1)) && { sleep 1; return 0; }
    sleep 0.1
  done
  return 1
}

pairs() {
  local i c cand f tps cpu
  for i in $(seq 1 "$PAIRS"); do
    for c in $CLIENTS; do
      for cand in $CANDIDATES; do
        f=$WORK/$cand-$i-$c
        case $cand in
          a) dsbench "a$i-$c" "$c" --mode select --prepare --scales "$SCALE" --duration "${SECS}s"; tps=$A_TPS cpu=$A_CPU ;;
          b) DBGAUGE_EXPERIMENT_NETPOLL=${NETPOLL_PS:-2} dsbench "b$i-$c" "$c" --mode select --prepare --scales "$SCALE" --duration "${SECS}s"; tps=$A_TPS cpu=$A_CPU ;;
          c) "$EPOLLPG" -url "$URL" -c "$c" -j 2 -T "$SECS" -scale "$SCALE" >"$f.out" 2>&1 || die_log "$f.out" epollpg
             tps=$(awk '{print $2}' "$f.out") cpu=$(awk '{print $8}' "$f.out") ;;
          p2 | pN)
             local j=2; [[ $cand == pN ]] && j=$c
             cpu_of "$f.cpu" pgbench -n -S -M prepared -c "$c" -j "$j" -T "$SECS" "$URL" >"$f.out" 2>&1 || die_log "$f.out" pgbench
             read -r tps n < <(pgbench_result "$f.out"); cpu=$(cpu_per_tx "$f.cpu" "$n") ;;
        esac
        printf 'row\t%s\t%s\t%s\t%s\t%s\t%s\n' "$cand" "$c" "$i" "$tps" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)"
      done
    done
  done
}

# machine_busy: the machine's busy CPU time so far, in 1/100 s (all CPUs,
# from /proc/stat: everything but idle and iowait).
machine_busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9; exit}' /proc/stat; }

perfstat() {
  local c cand f ev
  ev=task-clock,context-switches,cpu-migrations,raw_syscalls:sys_enter
  for s in read write recvfrom sendto epoll_pwait epoll_wait ppoll futex nanosleep sched_yield getrusage; do
    ev+=,syscalls:sys_enter_$s
  done
  # EVENTS: fewer events, for runs of a thousand threads (perf attaches
  # each event to each thread); the write counts are needed
  ev=${EVENTS:-$ev}
  for c in $CLIENTS; do
    for cand in $CANDIDATES; do
      f=$WORK/perf-$cand-$c
      start "$cand" "$c" "$SECS" "$f.out"
      local pid=$BG_PID
      # dsbench populates first; its load begins when the sessions are open
      steady "$c" "$f.out" || { echo "perf $cand $c: the load did not start" >&2; continue; }
      local busy0 busy1 rss threads tps
      rss=$(awk '/^VmRSS/ {print $2}' /proc/$pid/status) threads=$(awk '/^Threads/ {print $2}' /proc/$pid/status)
      busy0=$(machine_busy)
      perf stat -x, -o "$f.stat" -e "$ev" -p "$pid" -- sleep "$WINDOW" 2>/dev/null || true
      busy1=$(machine_busy)
      # perf attaches to every thread before its window begins: with
      # hundreds of threads that takes seconds, and a run too short ends
      # inside the window (its counts are then still the ones taken, but
      # the machine's time is not)
      kill -0 "$pid" 2>/dev/null || echo "perf $cand $c: it ended within the window: give a longer SECS" >&2
      bg_wait "$pid" $((SECS + 60)) || die_log "$f.out" "$cand"
      tps=$(tps_of "$cand" "$f.out")
      # per transaction: the counts over the window's transactions. Every
      # candidate sends each transaction in one write (write or sendto), so
      # those count the window's transactions (perf's tracing slows the
      # window, so the run's rate times the window would overstate them)
      awk -F, -v cand="$cand" -v c="$c" -v rss="$rss" -v th="$threads" -v tps="$tps" -v w="$WINDOW" -v busy=$((busy1 - busy0)) '
        $1 ~ /^[0-9.]+$/ && $3 != "" {v[$3] = $1}
        END {
          tx = v["syscalls:sys_enter_write"] + v["syscalls:sys_enter_sendto"]
          if (tx == 0) tx = tps * w
          printf "perf\t%s\t%s\ttps %s\trss_MB %.1f\tthreads %s\tcpu_us/tx %.2f\tmachine_us/tx %.2f", cand, c, tps, rss / 1024, th, v["task-clock"] * 1000 / tx, busy * 1e4 / tx
          for (k in v) if (k != "task-clock") { n = k; sub(/^syscalls:sys_enter_/, "", n); sub(/^raw_syscalls:sys_enter/, "all_syscalls", n); printf "\t%s %.3f", n, v[k] / tx }
          printf "\n"
        }' "$f.stat"
    done
  done
}

perfrecord() {
  local c cand f rec comm
  for c in $CLIENTS; do
    for cand in $CANDIDATES; do
      f=$WORK/rec-$cand-$c
      # The whole machine, recorded from before the candidate starts:
      # perf attaching to a running process with hundreds of threads (-p,
      # or -a's scan of them) took longer than the run. The report is the
      # candidate's process (by its command name) in the middle of the
      # record, where the load runs (SECS must cover dsbench's population
      # and leave the load past 85 % of the record).
      perf record -q -a -g -o "$f.data" -- sleep "$SECS" >"$f.perf" 2>&1 &
      rec=$!
      sleep 1
      start "$cand" "$c" "$SECS" "$f.out"
      comm=$(cat /proc/$BG_PID/comm)
      wait "$rec" || { echo "record $cand $c: perf record failed:" >&2; tail -3 "$f.perf" >&2; }
      bg_wait "$BG_PID" 120 >/dev/null || true
      echo "record $cand $c: top functions (self, share of the process)"
      perf report -q -i "$f.data" --comm "$comm" --time 60%-85% --percentage relative --no-children --sort sym --stdio -g none 2>/dev/null | awk 'NF && n++ < 15' || true
      echo "record $cand $c: with what they call (children)"
      perf report -q -i "$f.data" --comm "$comm" --time 60%-85% --percentage relative --children --sort sym --stdio -g none 2>/dev/null | awk 'NF && n++ < 40' || true
    done
  done
}

case $PHASE in
  pairs) pairs ;;
  perf) perfstat ;;
  record) perfrecord ;;
  *) echo "phase $PHASE: use pairs, perf or record" >&2; exit 2 ;;
esac
