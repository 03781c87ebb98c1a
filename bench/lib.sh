# Shared by the bench/ scripts (sourced): build, private instances, pairs, medians.
#
# Every script runs dbgauge and its peer on the same private instance,
# interleaved (dbgauge, peer, dbgauge, peer, ...), at every client count of
# CLIENTS, and prints per pair each side's rate and client CPU per
# transaction, then per client count the median ratio dbgauge/peer with its
# min and max.
#
# Environment (every script):
#   SOCKET=1        both sides connect through the server's Unix-domain socket
#                   (in the instance directory) instead of TCP loopback
#   DBG=PATH        the dbgauge binary to use (default: make build, then a
#                   copy of bin/dbgauge, so that a rebuild meanwhile does not
#                   change the binary under measurement)
#   BENCH_SUMMARY=FILE  append one tab-separated row per client count (all.sh
#                   reads them): benchmark transport clients pairs
#                   tps_med tps_min tps_max cpu_med cpu_min cpu_max aim_tps aim_cpu
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
WORK=$(mktemp -d /tmp/dbgauge-bench.XXXXXX)
chmod 755 "$WORK"
SERVERS=()
# BG: processes a script started in the background (bg_start); the cleanup
# ends them, and their children (the command under /usr/bin/time), before it
# stops the servers, also on Ctrl-C or SIGTERM.
BG=()
cleanup() {
  local p i
  for p in ${BG[@]+"${BG[@]}"}; do pkill -TERM -P "$p" 2>/dev/null || true; kill -TERM "$p" 2>/dev/null || true; done
  for p in ${BG[@]+"${BG[@]}"}; do
    for i in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    pkill -KILL -P "$p" 2>/dev/null || true; kill -KILL "$p" 2>/dev/null || true
  done
  for s in ${SERVERS[@]+"${SERVERS[@]}"}; do "$DBG" server stop "${s%%/*}" --dir "$WORK/${s#*/}" >/dev/null 2>&1 || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
# Ctrl-C and SIGTERM end the script through its EXIT trap at once (a script
# waits for its processes with wait, which a signal interrupts).
trap 'exit 130' INT
trap 'exit 143' TERM
if [[ -z ${DBG:-} ]]; then
  make -s build
  cp bin/dbgauge "$WORK/dbgauge"
  DBG=$WORK/dbgauge
fi
SOCKET=${SOCKET:-0}
case $SOCKET in
  1 | yes | true) SOCKET=1 TRANSPORT=socket ;;
  0 | no | false | "") SOCKET=0 TRANSPORT=tcp ;;
  *) echo "SOCKET=$SOCKET: use 1 (Unix socket) or 0 (TCP loopback)" >&2; exit 2 ;;
esac
PAIRS_FILE=$WORK/pairs.tsv
: > "$PAIRS_FILE"

# start_server ENGINE [--set k=v ...]: starts a private instance and sets URL,
# through the Unix socket when SOCKET=1. INSTANCE (environment, default
# ENGINE) names its directory under $WORK, for a second instance of one
# engine. (Not to be called in $(...): the cleanup must see SERVERS.)
start_server() {
  local engine=$1 name=${INSTANCE:-$1}; shift
  local sock=()
  [[ $SOCKET == 1 ]] && sock=(--socket)
  SERVERS+=("$engine/$name")
  if ! URL=$("$DBG" server start "$engine" --dir "$WORK/$name" ${sock[@]+"${sock[@]}"} "$@" 2>"$WORK/$name.start"); then
    cat "$WORK/$name.start" >&2
    exit 1
  fi
}

# bg_start OUTFILE cmd...: starts the command in the background, its output
# into OUTFILE, and sets BG_PID (recorded for the cleanup).
bg_start() {
  local out=$1; shift
  "$@" >"$out" 2>&1 &
  BG_PID=$!
  BG+=("$BG_PID")
}

# bg_wait PID SECONDS: waits at most SECONDS for a background process and
# returns its exit status (124 when it was still running).
bg_wait() {
  local i
  for i in $(seq $(($2 * 10))); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$1" 2>/dev/null && return 124
  wait "$1"
}

# clients_list LIST: "2 8" or "2,8" -> "2 8", checked.
clients_list() {
  local out=() c
  for c in ${1//,/ }; do
    [[ $c =~ ^[1-9][0-9]*$ ]] || { echo "client count $c: not a positive whole number" >&2; exit 2; }
    out+=("$c")
  done
  [[ ${#out[@]} -gt 0 ]] || { echo "no client count given" >&2; exit 2; }
  echo "${out[*]}"
}

# die_log FILE WHAT: a run failed; show its output and stop.
die_log() { echo "$2 failed; its output ($1):" >&2; tail -20 "$1" >&2; exit 1; }

# dsbench NAME CLIENTS ARGS...: one dbgauge dsbench run of one cycle at one
# scale (ARGS give --scales, --duration, --mode ...) on $URL, as CLIENTS
# threads of one connection each; sets A_TPS and A_CPU (client CPU in
# microseconds per transaction, from results.json: the process's own CPU time
# during the cycle over its transactions).
dsbench() {
  local name=$1 clients=$2; shift 2
  "$DBG" dsbench --db "$URL" --cycles 1 --threads "$clients" --out "$WORK/$name" "$@" >"$WORK/$name.log" 2>&1 ||
    die_log "$WORK/$name.log" "dbgauge dsbench $*"
  read -r A_TPS A_CPU < <(json_get "$WORK/$name/results.json" \
    "(lambda s: '%.1f %.2f' % (s['median_tps'], 1e6*s['client_cpu_s']/s['transactions']))(r['scales'][0])" 2>>"$WORK/$name.log") ||
    die_log "$WORK/$name.log" "reading dbgauge's results.json"
}

# cpu_per_tx CPUFILE N: microseconds of client CPU (user + sys from
# /usr/bin/time, written by cpu_of) per transaction of N.
cpu_per_tx() { awk -v n="$2" '{printf "%.2f", ($1+$2)*1e6/n}' "$1"; }

# cpu_of OUTFILE cmd...: runs the command under /usr/bin/time, which writes
# the command's user and system CPU seconds ("user sys") to OUTFILE.
cpu_of() { local out=$1; shift; /usr/bin/time -f "%U %S" -o "$out" "$@"; }

# pair BENCH PEER CLIENTS I A_RATE A_CPU B_RATE B_CPU [LABEL]: records one
# pair and prints it (LABEL names dbgauge's variant, e.g. its form). The
# rate is transactions per second, or rows per second for the loads
# (RATE_UNIT=rows/s PER=row); a CPU of "-" is not measured. A_NAME names
# the first side (dbgauge) where both are dbgauge's; CPU_NAME whose CPU the
# pairs compare.
RATE_UNIT=tps PER=tx A_NAME=dbgauge CPU_NAME="client CPU"
pair() {
  local bench=$1 peer=$2 c=$3 i=$4 at=$5 ac=$6 bt=$7 bc=$8 label=${9:-}
  local tr cr=-
  tr=$(ratio "$at" "$bt")
  [[ $ac == - || $bc == - ]] || cr=$(ratio "$ac" "$bc")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$bench" "$c" "$i" "$at" "$ac" "$bt" "$bc" "$tr" "$cr" >> "$PAIRS_FILE"
  if [[ $cr == - ]]; then
    printf 'pair %d, %s: %s%s %10.1f %s | %-8s %10.1f %s | ratio %s %s\n' \
      "$i" "$(clients_word "$c")" "$A_NAME" "${label:+ $label}" "$at" "$RATE_UNIT" "$peer" "$bt" "$RATE_UNIT" "$RATE_UNIT" "$tr"
  else
    printf 'pair %d, %s: dbgauge%s %10.1f %s %8s us/%s | %-8s %10.1f %s %8s us/%s | ratio %s %s, cpu/%s %s\n' \
      "$i" "$(clients_word "$c")" "${label:+ $label}" "$at" "$RATE_UNIT" "$ac" "$PER" "$peer" "$bt" "$RATE_UNIT" "$bc" "$PER" "$RATE_UNIT" "$tr" "$PER" "$cr"
  fi
}

# clients_word N: " 2 clients", " 1 client"
clients_word() { if [[ $1 == 1 ]]; then printf '%2d client ' "$1"; else printf '%2d clients' "$1"; fi; }

# summarize BENCH PEER AIM_RATE AIM_CPU: per client count of BENCH, the
# median ratio dbgauge/PEER with min and max, of the rate and of the client
# CPU per transaction (or row); also appended to $BENCH_SUMMARY when set.
summarize() {
  local bench=$1 peer=$2 aim_t=$3 aim_c=$4
  awk -F'\t' -v bench="$bench" -v peer="$peer" -v aname="$A_NAME" -v cpuname="$CPU_NAME" -v tr="$TRANSPORT" -v at="$aim_t" -v ac="$aim_c" \
      -v unit="$RATE_UNIT" -v per="$PER" -v out="${BENCH_SUMMARY:-}" '
    function med(a, n,   i, j, t) {   # sorts a[1..n] in place
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
      return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
    }
    $1 == bench {
      c = $2; if (!(c in n)) { order[++k] = c; nocpu[c] = 0 }
      n[c]++; t[c, n[c]] = $8 + 0; u[c, n[c]] = $9 + 0; if ($9 == "-") nocpu[c] = 1
    }
    END {
      for (o = 1; o <= k; o++) {
        c = order[o]; m = n[c]
        for (i = 1; i <= m; i++) { x[i] = t[c, i]; y[i] = u[c, i] }
        tm = med(x, m); cm = med(y, m)
        rate = sprintf("%.3f\t%.3f\t%.3f", tm, x[1], x[m])
        cpu = nocpu[c] ? "-\t-\t-" : sprintf("%.3f\t%.3f\t%.3f", cm, y[1], y[m])
        split(rate, r, "\t"); split(cpu, p, "\t")
        cputext = nocpu[c] ? cpuname " not compared" :
          sprintf("%s/%s %s [%s, %s]%s", cpuname, per, p[1], p[2], p[3], ac == "-" ? " (no aim)" : " (aim <= " ac ")")
        printf "%s, %s, %d client%s, %d pairs: median ratio %s/%s: %s %s [%s, %s] (%s), %s\n",
          bench, tr, c, c == 1 ? "" : "s", m, aname, peer, unit, r[1], r[2], r[3], at == "-" ? "no aim" : "aim >= " at, cputext
        if (out != "")
          printf "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", bench, tr, c, m, rate, cpu, at, ac >> out
      }
    }' "$PAIRS_FILE"
}

# pgbench_result FILE: "tps transactions" from pgbench's output.
pgbench_result() {
  awk '/^tps = / && !t {t = $3}
       /number of transactions actually processed/ {split($0, x, ": "); split(x[2], y, "/"); n = y[1] + 0}
       END {if (t == "" || !n) exit 1; print t, n}' "$1"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == 0) print "inf"; else printf "%.3f", a/b}'; }

# json_get FILE EXPR: a value from results.json (python3 is on every Debian).
json_get() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

# masked prints a URL with its password as *** (the private instance's
# password stays out of the logs people paste).
masked() { sed -E 's#(://[^:/@]*):[^@]*@#\1:***@#' <<<"$1"; }
