#!/usr/bin/env bash
# The cost of the engines' statement instrumentation on a select-only load:
# dbgauge dsbench --mode select --prepare on private instances in three
# states, interleaved (the order rotates from round to round), at every
# client count:
#   on    every session instrumented, as private servers were before
#         (PostgreSQL: pg_stat_statements.track = top, track_planning = on;
#         MariaDB: performance_schema's setup_actors instrument every
#         session, statement history kept)
#   off   the private server as it starts now: the instrumentation there,
#         no session using it (PostgreSQL: pg_stat_statements loaded,
#         track = none; MariaDB: performance_schema and its statement
#         consumers on, setup_actors instrumenting no session)
#   none  a second instance without it (PostgreSQL:
#         shared_preload_libraries empty; MariaDB: performance_schema=OFF)
# on and off are the same instance, switched between runs (ALTER SYSTEM and
# a reload; an UPDATE of setup_actors), which new sessions, so each run's,
# pick up. Each run's manifest.json records a new session's instrumentation
# as read from the engine, and the script checks it is the state meant.
# Prints per round each state's tps and server CPU per transaction (the
# server's processes' CPU time over the cycle, from results.json, over its
# transactions: less moved than the rate by other work on a shared
# machine), and per engine and client count the median ratio on/off (what
# instrumenting every session costs) and off/none (what having it there
# unused costs) of both, with min and max.
#
# Usage: [SOCKET=1] bench/instrumentation.sh [ENGINES] [SCALE] [SECONDS] [CLIENTS] [PAIRS]
#   defaults: ENGINES "postgres mariadb", SCALE 1, SECONDS 10 per run,
#   CLIENTS "2", PAIRS 5; each may also come from the environment (ENGINES,
#   SCALE, SECS, CLIENTS, PAIRS).
source "$(dirname "$0")/lib.sh"
ENGINES=${1:-${ENGINES:-postgres mariadb}} SCALE=${2:-${SCALE:-1}} SECS=${3:-${SECS:-10}} PAIRS=${5:-${PAIRS:-5}}
CLIENTS=$(clients_list "${4:-${CLIENTS:-2}}")
for engine in ${ENGINES//,/ }; do
  [[ $engine == postgres || $engine == mariadb ]] || { echo "engine $engine: use postgres or mariadb" >&2; exit 2; }
done

# admin_sql URL STATEMENT...: runs each statement on its own (ALTER SYSTEM
# may not share a transaction) through the engine's own client.
admin_sql() {
  local url=$1 q; shift
  case $url in
    postgres*)
      local cmds=()
      for q in "$@"; do cmds+=(-c "$q"); done
      psql -X -q -v ON_ERROR_STOP=1 "$url" "${cmds[@]}" >/dev/null ;;
    mysql://*)
      # mysql://USER[:PASS]@tcp-host:port/db or mysql://USER[:PASS]@unix(PATH)/db
      local rest=${url#mysql://} userinfo conn=()
      userinfo=${rest%%@*} rest=${rest#*@}
      if [[ $rest == unix\(* ]]; then
        rest=${rest#unix(}; conn=(--socket="${rest%%)*}")
      else
        rest=${rest%%/*}; conn=(-h "${rest%:*}" -P "${rest##*:}")
      fi
      local pass=
      [[ $userinfo == *:* ]] && pass=${userinfo#*:}
      for q in "$@"; do MYSQL_PWD=$pass mariadb --user="${userinfo%%:*}" "${conn[@]}" -e "$q"; done ;;
  esac
}

# set_state ENGINE on|off: switches the shared instance ($URL_ON) for the
# sessions that start from now on.
set_state() {
  case $1/$2 in
    postgres/on) admin_sql "$URL_ON" "ALTER SYSTEM SET pg_stat_statements.track = 'top'" \
      "ALTER SYSTEM SET pg_stat_statements.track_planning = 'on'" "SELECT pg_reload_conf()" ;;
    postgres/off) admin_sql "$URL_ON" "ALTER SYSTEM RESET pg_stat_statements.track" \
      "ALTER SYSTEM RESET pg_stat_statements.track_planning" "SELECT pg_reload_conf()" ;;
    mariadb/on) admin_sql "$URL_ON" "UPDATE performance_schema.setup_actors SET ENABLED = 'YES', HISTORY = 'YES'" ;;
    mariadb/off) admin_sql "$URL_ON" "UPDATE performance_schema.setup_actors SET ENABLED = 'NO', HISTORY = 'NO'" ;;
  esac
  # The postmaster passes a reload on to the backends it starts after it
  # has read the file: a moment.
  [[ $1 == postgres ]] && sleep 1
  return 0
}

# expect_instr RUN KEY WANT: the run's manifest says a new session had KEY = WANT.
expect_instr() {
  local got
  got=$(json_get "$WORK/$1/manifest.json" "[x for x in r.get('instrumentation', []) if x['session'].startswith('a new session')][0]['settings'].get('$2', '(absent)')") ||
    die_log "$WORK/$1.log" "reading the instrumentation of $1's manifest"
  [[ $got == "$3" ]] || { echo "run $1: a new session had $2 = $got, not $3: the instance is not in the state meant" >&2; exit 1; }
}

# state_check ENGINE STATE RUN: the run's manifest shows the state meant.
state_check() {
  local engine=$1 state=$2 run=$3
  case $engine/$state in
    postgres/on) expect_instr "$run" pg_stat_statements.track top ;;
    postgres/off) expect_instr "$run" pg_stat_statements.track none ;;
    postgres/none) expect_instr "$run" shared_preload_libraries "" ;;
    mariadb/on) expect_instr "$run" "performance_schema this session instrumented" YES ;;
    mariadb/off) expect_instr "$run" "performance_schema this session instrumented" NO ;;
    mariadb/none) expect_instr "$run" performance_schema OFF ;;
  esac
}

A_NAME=instrumented
for engine in ${ENGINES//,/ }; do
  case $engine in
    postgres) base=(--set shared_buffers=256MB --set max_connections=200) none=(--set shared_preload_libraries=) ;;
    mariadb) base=(--set innodb_buffer_pool_size=256M) none=(--set performance_schema=OFF) ;;
  esac
  INSTANCE=$engine-on start_server "$engine" "${base[@]}"
  URL_ON=$URL
  INSTANCE=$engine-none start_server "$engine" "${base[@]}" "${none[@]}"
  URL_NONE=$URL
  echo "instrumentation, $engine: select-only, scale $SCALE, $SECS s per run, clients $CLIENTS, $PAIRS rounds of on, off, none (rotating), $TRANSPORT"
  echo "  on/off: $(masked "$URL_ON"), none: $(masked "$URL_NONE")"
  for i in $(seq 1 "$PAIRS"); do
    for c in $CLIENTS; do
      states=(on off none)
      k=$(((i - 1) % 3))
      order=("${states[@]:k}" "${states[@]:0:k}")
      declare -A TPS=() SCPU=()
      for st in "${order[@]}"; do
        if [[ $st == none ]]; then
          URL=$URL_NONE
        else
          URL=$URL_ON
          set_state "$engine" "$st"
        fi
        run=$engine-$st-$i-$c
        dsbench "$run" "$c" --mode select --prepare --scales "$SCALE" --duration "${SECS}s"
        state_check "$engine" "$st" "$run"
        TPS[$st]=$A_TPS
        SCPU[$st]=$(json_get "$WORK/$run/results.json" \
          "(lambda s: '%.2f' % (1e6*s['server_cpu_s']/s['transactions']))(r['scales'][0])" 2>>"$WORK/$run.log") ||
          die_log "$WORK/$run.log" "reading the server's CPU from $run's results.json"
      done
      echo "round $i, $(clients_word "$c") (${order[*]}): on ${TPS[on]} tps ${SCPU[on]} us/tx, off ${TPS[off]} tps ${SCPU[off]} us/tx, none ${TPS[none]} tps ${SCPU[none]} us/tx (server CPU)"
      A_NAME=on pair "$engine-on/off" off "$c" "$i" "${TPS[on]}" "${SCPU[on]}" "${TPS[off]}" "${SCPU[off]}" >/dev/null
      A_NAME=off pair "$engine-off/none" none "$c" "$i" "${TPS[off]}" "${SCPU[off]}" "${TPS[none]}" "${SCPU[none]}" >/dev/null
    done
  done
  CPU_NAME="server CPU" A_NAME=on summarize "$engine-on/off" off - -
  CPU_NAME="server CPU" A_NAME=off summarize "$engine-off/none" none - -
done
