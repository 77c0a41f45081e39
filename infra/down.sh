#!/usr/bin/env bash
# Stop the servers started by infra/up.sh: exactly the processes whose PIDs are recorded in
# infra/.run/*.pid (SIGTERM, or SIGINT for PostgreSQL's fast shutdown; SIGKILL after a timeout). Never fails when nothing is running.
# Data and logs stay in infra/.run/ until the next fresh start (up.sh wipes them then).
#
#   bash infra/down.sh                 # all of them; removes infra/.run/infra.env
#   bash infra/down.sh clickhouse ...  # only these (kafka, ferretdb, postgres, clickhouse); removes
#                                      # their variables from infra.env (postgres: FerretDB's too)
set -euo pipefail

INFRA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUN_DIR="${LEADSTREAM_RUN_DIR:-$INFRA_DIR/.run}"
STOP_TIMEOUT="${LEADSTREAM_STOP_TIMEOUT:-30}" # seconds before SIGKILL

log() { printf '[infra] %s\n' "$*" >&2; }

SERVERS=(ferretdb postgres kafka clickhouse)
selected=("$@")
for name in "${selected[@]}"; do
  [[ " ${SERVERS[*]} " == *" $name "* ]] || { log "unknown server '$name' (one of: ${SERVERS[*]})"; exit 2; }
done
# wanted NAME: true when NAME is to be stopped.
wanted() { ((${#selected[@]} == 0)) || [[ " ${selected[*]} " == *" $1 "* ]]; }

[[ -d "$RUN_DIR" ]] || { log "nothing to stop ($RUN_DIR does not exist)"; exit 0; }

exec 9>"$RUN_DIR/.lock"
flock -w 900 9 || log "warning: could not take $RUN_DIR/.lock; stopping anyway"

# The tests must not think servers are up any more.
if ((${#selected[@]} == 0)); then
  rm -f "$RUN_DIR/infra.env"
elif [[ -f "$RUN_DIR/infra.env" ]]; then
  gone=()
  wanted kafka && gone+=(KAFKA_BROKERS)
  { wanted ferretdb || wanted postgres; } && gone+=(MONGODB_URI)
  wanted clickhouse && gone+=(CLICKHOUSE_URL)
  pattern="^($(IFS='|'; echo "${gone[*]}"))="
  grep -Ev "$pattern" "$RUN_DIR/infra.env" >"$RUN_DIR/infra.env.tmp" || true
  mv "$RUN_DIR/infra.env.tmp" "$RUN_DIR/infra.env"
fi

# alive PID: exists and is not a zombie (an orphan's reaper may be slow).
alive() {
  kill -0 "$1" 2>/dev/null || return 1
  local state
  state="$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null || true)"
  [[ "$state" != "Z" ]]
}

# stop NAME PATTERN [SIGNAL]: PATTERN must occur in the process's command line (guards against PID
# reuse). SIGNAL defaults to TERM.
stop() {
  local name="$1" pattern="$2" sig="${3:-TERM}" pidfile="$RUN_DIR/$1.pid" pid i cmdline
  if [[ ! -f "$pidfile" ]]; then
    log "$name: not running (no pid file)"
    return 0
  fi
  pid="$(cat "$pidfile" 2>/dev/null || true)"
  if ! [[ "$pid" =~ ^[0-9]+$ ]] || ! alive "$pid"; then
    log "$name: not running (stale pid file)"
    rm -f "$pidfile"
    return 0
  fi
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
  if [[ "$cmdline" != *"$pattern"* ]]; then
    log "$name: pid $pid is not $name any more (pid reused); leaving it alone"
    rm -f "$pidfile"
    return 0
  fi
  log "$name: stopping pid $pid (SIG$sig)"
  kill "-$sig" "$pid" 2>/dev/null || true
  for ((i = 0; i < STOP_TIMEOUT * 5; i++)); do
    alive "$pid" || break
    sleep 0.2
  done
  if alive "$pid"; then
    log "$name: still alive after ${STOP_TIMEOUT}s; SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do alive "$pid" || break; sleep 0.1; done
  fi
  rm -f "$pidfile"
  log "$name: stopped"
}

# FerretDB first (quick; it is PostgreSQL's only client), then PostgreSQL (SIGINT = fast shutdown:
# rolls back open transactions, checkpoints, exits; SIGTERM would wait for clients to leave), then
# Kafka (controlled shutdown takes a few seconds), then the ClickHouse stand-in (closes its engine).
if wanted ferretdb; then stop ferretdb ferretdb || true; fi
if wanted postgres; then stop postgres "$RUN_DIR/postgres/data" INT || true; fi
if wanted kafka; then stop kafka kafka.Kafka || true; fi
if wanted clickhouse; then stop clickhouse chdb-http/server.py || true; fi
exit 0
