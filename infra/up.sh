#!/usr/bin/env bash
# Start real servers for tests as local processes on loopback (no Docker): a single-node Kafka
# (KRaft, combined broker+controller), FerretDB v1 on its PostgreSQL backend (a private
# PostgreSQL cluster in infra/.run/postgres, on its own loopback port), and "clickhouse": a test
# stand-in speaking ClickHouse's HTTP interface over chdb-core (infra/chdb-http/server.py).
# Installs what is missing first (Kafka jars from Maven Central, FerretDB built with Go and
# chdb-core from PyPI in a virtualenv, all cached under ${LEADSTREAM_CACHE:-~/.cache/leadstream};
# Debian's `postgresql` package with apt-get when no PostgreSQL server binaries are found).
# Idempotent: servers that are already running and answering are left alone. Writes
# infra/.run/infra.env. See infra/README.md.
set -euo pipefail

INFRA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUN_DIR="${LEADSTREAM_RUN_DIR:-$INFRA_DIR/.run}"
CACHE_DIR="${LEADSTREAM_CACHE:-$HOME/.cache/leadstream}"

KAFKA_PORT="${LEADSTREAM_KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${LEADSTREAM_KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
KAFKA_HEAP="${LEADSTREAM_KAFKA_HEAP:--Xmx768m -Xms256m}"
FERRETDB_PORT="${LEADSTREAM_FERRETDB_PORT:-27018}"
# Not 5432, so a system PostgreSQL (Debian's package may start one) never clashes with ours.
POSTGRES_PORT="${LEADSTREAM_POSTGRES_PORT:-15432}"
# initdb and postgres refuse to run as root: as root the cluster belongs to this OS user.
POSTGRES_OS_USER="${LEADSTREAM_POSTGRES_USER:-postgres}"
FERRETDB_VERSION="v1.24.2"
CLICKHOUSE_PORT="${LEADSTREAM_CLICKHOUSE_PORT:-18123}"
START_TIMEOUT="${LEADSTREAM_INFRA_TIMEOUT:-180}" # seconds per server

KAFKA_VERSION="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$INFRA_DIR/kafka/pom.xml")"
KAFKA_LIBS="$CACHE_DIR/kafka/$KAFKA_VERSION/libs"
FERRETDB_BIN="$CACHE_DIR/bin/ferretdb"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
CHDB_REQUIREMENTS="$INFRA_DIR/chdb-http/requirements.txt"
CHDB_VERSION="$(sed -n 's/^chdb-core==\([^[:space:]]*\).*/\1/p' "$CHDB_REQUIREMENTS")"
CHDB_VENV="$CACHE_DIR/chdb-core-$CHDB_VERSION"
CHDB_SERVER="$INFRA_DIR/chdb-http/server.py"

KAFKA_BROKERS="127.0.0.1:$KAFKA_PORT"
MONGODB_URI="mongodb://127.0.0.1:$FERRETDB_PORT/"
# Trust authentication, loopback only (pg_hba.conf in start_postgres): a throw-away test cluster.
POSTGRES_URL="postgres://postgres@127.0.0.1:$POSTGRES_PORT/ferretdb"
CLICKHOUSE_URL="http://127.0.0.1:$CLICKHOUSE_PORT"
PG_BIN="" # set by install_postgres

log() { printf '[infra] %s\n' "$*" >&2; }
die() { printf '[infra] ERROR: %s\n' "$*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || die "'$1' is not on PATH: $2"; }

need node "Node.js 20+ is required (readiness probes)"

mkdir -p "$RUN_DIR" "$CACHE_DIR"
# One up.sh/down.sh at a time per run directory (several engineers/terminals share a checkout).
exec 9>"$RUN_DIR/.lock"
flock -w 900 9 || die "another infra/up.sh or infra/down.sh holds $RUN_DIR/.lock"

# ---------------------------------------------------------------------------------------------
# helpers

# pid_alive NAME PATTERN: true when $RUN_DIR/NAME.pid names a live process whose command line
# contains PATTERN (guards against PID reuse).
pid_alive() {
  local pidfile="$RUN_DIR/$1.pid" pid cmdline
  [[ -s "$pidfile" ]] || return 1
  pid="$(cat "$pidfile")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null && return 1
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
  [[ "$cmdline" == *"$2"* ]]
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

probe() { PROBE_TIMEOUT_MS=3000 node "$INFRA_DIR/probe.mjs" "$@"; }

show_log() {
  local f
  for f in "$@"; do show_one_log "$f"; done
}

show_one_log() {
  local f="$1"
  if [[ -s "$f" ]]; then
    printf '[infra] ---- last 40 lines of %s ----\n' "$f" >&2
    tail -n 40 "$f" >&2 || true
    printf '[infra] ---- end of %s ----\n' "$f" >&2
  fi
}

# wait_ready NAME PATTERN LOGFILE PROBE-ARGS...: on failure prints the tail of every *.log beside
# LOGFILE (Kafka writes JVM errors such as OutOfMemoryError to stdout.log, not server.log).
wait_ready() {
  local name="$1" pattern="$2" logfile="$3"
  shift 3
  local deadline=$((SECONDS + START_TIMEOUT))
  while ((SECONDS < deadline)); do
    if ! pid_alive "$name" "$pattern"; then
      show_log "$(dirname "$logfile")"/*.log
      die "$name exited during startup (log: $logfile)"
    fi
    if probe "$@"; then
      return 0
    fi
    sleep 1
  done
  show_log "$(dirname "$logfile")"/*.log
  PROBE_VERBOSE=1 probe "$@" || true
  die "$name did not answer within ${START_TIMEOUT}s (log: $logfile; raise LEADSTREAM_INFRA_TIMEOUT?)"
}

# stop_pid NAME PATTERN: used when a recorded process is alive but does not answer.
stop_pid() {
  local pidfile="$RUN_DIR/$1.pid" pid i
  if pid_alive "$1" "$2"; then
    pid="$(cat "$pidfile")"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 30; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

# start_detached NAME LOGFILE CMD...: runs CMD in its own session, records its PID.
start_detached() {
  local name="$1" logfile="$2"
  shift 2
  local pidfile="$RUN_DIR/$name.pid"
  rm -f "$pidfile"
  # The inner shell writes its own PID and then execs the server, so the PID file names the
  # server process itself whatever setsid does.
  # fd 9 (the lock) is closed so the server does not hold it after this script exits.
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@" </dev/null >>"$logfile" 2>&1 9>&- &
  local i
  for ((i = 0; i < 50; i++)); do [[ -s "$pidfile" ]] && break; sleep 0.1; done
  [[ -s "$pidfile" ]] || die "could not start $name"
}

# ---------------------------------------------------------------------------------------------
# install

install_kafka() {
  [[ -n "$KAFKA_VERSION" ]] || die "could not read <kafka.version> from $INFRA_DIR/kafka/pom.xml"
  if [[ -f "$KAFKA_LIBS/.complete" ]]; then return 0; fi
  need "$JAVA" "a Java 17+ runtime is required for Kafka"
  need mvn "Maven is required to fetch Kafka's jars from Maven Central"
  log "fetching Apache Kafka $KAFKA_VERSION jars from Maven Central into $KAFKA_LIBS"
  local tmp="$KAFKA_LIBS.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  local mvnlog="$CACHE_DIR/kafka/mvn.log"
  mkdir -p "$CACHE_DIR/kafka"
  (cd "$INFRA_DIR/kafka" && mvn -B -Dstyle.color=never \
    -Dmaven.repo.local="$CACHE_DIR/m2" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp") >"$mvnlog" 2>&1 || {
    show_log "$mvnlog"
    die "mvn dependency:copy-dependencies failed (is Maven Central reachable?)"
  }
  [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]] || die "kafka_2.13-$KAFKA_VERSION.jar missing after mvn"
  touch "$tmp/.complete"
  rm -rf "$KAFKA_LIBS"
  mkdir -p "$(dirname "$KAFKA_LIBS")"
  mv "$tmp" "$KAFKA_LIBS"
}

ferretdb_ok() {
  [[ -x "$FERRETDB_BIN" ]] || return 1
  local out
  out="$("$FERRETDB_BIN" --version 2>/dev/null || true)"
  [[ "$out" == "version: $FERRETDB_VERSION"* ]]
}

install_ferretdb() {
  if ferretdb_ok; then return 0; fi
  need go "Go is required to build FerretDB $FERRETDB_VERSION"
  log "building FerretDB $FERRETDB_VERSION into $FERRETDB_BIN; takes a few minutes the first time"
  # `go install ...@v1.24.2` fails behind our proxy (403 on the @v/list deprecation lookup), so
  # download the module explicitly. The module zip lacks the generated build/version/version.txt
  # (the binary would panic at startup), so build from a writable copy with that file added.
  local dir src
  dir="$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -n "$dir" && -d "$dir" ]] || die "go mod download github.com/FerretDB/FerretDB@$FERRETDB_VERSION failed"
  src="$CACHE_DIR/src/ferretdb-$FERRETDB_VERSION"
  rm -rf "$src"
  mkdir -p "$(dirname "$src")" "$(dirname "$FERRETDB_BIN")"
  cp -R "$dir" "$src"
  chmod -R u+w "$src"
  echo "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  echo "leadstream-infra" >"$src/build/version/package.txt"
  (cd "$src" && GOTOOLCHAIN=local GOFLAGS= go build -trimpath -o "$FERRETDB_BIN.tmp.$$" ./cmd/ferretdb) ||
    die "go build of FerretDB failed"
  mv "$FERRETDB_BIN.tmp.$$" "$FERRETDB_BIN"
  ferretdb_ok || die "built $FERRETDB_BIN but '$FERRETDB_BIN --version' does not report $FERRETDB_VERSION"
}

# pg_bindir: LEADSTREAM_PG_BIN, or the newest /usr/lib/postgresql/<ver>/bin with server binaries.
pg_bindir() {
  if [[ -n "${LEADSTREAM_PG_BIN:-}" ]]; then
    if [[ -x "$LEADSTREAM_PG_BIN/initdb" && -x "$LEADSTREAM_PG_BIN/postgres" ]]; then echo "$LEADSTREAM_PG_BIN"; fi
    return 0
  fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5 -rn); do
    if [[ -x "$d/initdb" && -x "$d/postgres" && -x "$d/pg_isready" && -x "$d/psql" ]]; then
      echo "$d"
      return 0
    fi
  done
}

install_postgres() {
  PG_BIN="$(pg_bindir)"
  if [[ -z "$PG_BIN" ]]; then
    [[ -z "${LEADSTREAM_PG_BIN:-}" ]] || die "LEADSTREAM_PG_BIN=$LEADSTREAM_PG_BIN has no initdb/postgres"
    [[ "$(id -u)" == 0 ]] || die "PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin: run 'sudo apt-get install -y postgresql' (or set LEADSTREAM_PG_BIN)"
    need apt-get "PostgreSQL is missing and this is not Debian/Ubuntu: install PostgreSQL 13+ and set LEADSTREAM_PG_BIN"
    log "installing Debian's postgresql package with apt-get"
    local aptlog="$RUN_DIR/apt-postgresql.log"
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } </dev/null >"$aptlog" 2>&1 || {
      show_log "$aptlog"
      die "apt-get install postgresql failed (log: $aptlog)"
    }
    PG_BIN="$(pg_bindir)"
    [[ -n "$PG_BIN" ]] || die "postgresql installed but no /usr/lib/postgresql/*/bin/initdb found"
  fi
  if [[ "$(id -u)" == 0 ]]; then
    need setpriv "util-linux's setpriv runs PostgreSQL as $POSTGRES_OS_USER"
    if ! id -u "$POSTGRES_OS_USER" >/dev/null 2>&1; then
      log "creating system user $POSTGRES_OS_USER to own the PostgreSQL cluster"
      useradd --system --no-create-home --shell /usr/sbin/nologin "$POSTGRES_OS_USER" ||
        die "could not create user $POSTGRES_OS_USER"
    fi
    AS_PG=(setpriv "--reuid=$POSTGRES_OS_USER" "--regid=$(id -g "$POSTGRES_OS_USER")" --init-groups --)
  fi
}

# chdb-core (ClickHouse's engine as a Python library, ~560 MB) in a virtualenv of its own;
# `.complete` marks a finished install (a virtualenv cannot be built elsewhere and moved in).
install_chdb() {
  [[ -n "$CHDB_VERSION" ]] || die "could not read chdb-core==<version> from $CHDB_REQUIREMENTS"
  if [[ -f "$CHDB_VENV/.complete" && -x "$CHDB_VENV/bin/python" ]]; then return 0; fi
  need python3 "Python 3.9+ is required for the ClickHouse stand-in (chdb-core)"
  log "installing chdb-core $CHDB_VERSION from PyPI into $CHDB_VENV"
  rm -rf "$CHDB_VENV"
  local piplog="$CACHE_DIR/chdb-core-pip.log"
  # --no-deps: chdb-core's declared dependencies (pandas, pyarrow) serve only DataFrame and Arrow
  # results in Python, which the stand-in never asks for (see requirements.txt).
  { python3 -m venv "$CHDB_VENV" &&
    "$CHDB_VENV/bin/pip" install --disable-pip-version-check --no-deps -r "$CHDB_REQUIREMENTS" &&
    "$CHDB_VENV/bin/python" -c 'import chdb; print("chdb-core", chdb.__version__, "engine", chdb.engine_version)'; } \
    </dev/null >"$piplog" 2>&1 || {
    show_log "$piplog"
    rm -rf "$CHDB_VENV"
    die "installing chdb-core $CHDB_VERSION failed (is PyPI reachable? log: $piplog)"
  }
  touch "$CHDB_VENV/.complete"
}

# As root, the prefix that runs a command as the cluster's owner. setpriv execs (no extra process),
# so a PID recorded before it is the server's own.
AS_PG=()

# ---------------------------------------------------------------------------------------------
# start

start_kafka() {
  if pid_alive kafka kafka.Kafka; then
    if probe kafka "$KAFKA_BROKERS"; then
      log "kafka already running (pid $(cat "$RUN_DIR/kafka.pid")) on $KAFKA_BROKERS"
      return 0
    fi
    log "kafka (pid $(cat "$RUN_DIR/kafka.pid")) is running but not answering yet; waiting"
    if (wait_ready kafka kafka.Kafka "$RUN_DIR/kafka/logs/server.log" kafka "$KAFKA_BROKERS"); then
      return 0
    fi
    log "restarting kafka"
    stop_pid kafka kafka.Kafka
  fi
  rm -f "$RUN_DIR/kafka.pid"
  for p in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    port_in_use "$p" && die "port 127.0.0.1:$p is already in use by a process infra/ did not start (set LEADSTREAM_KAFKA_PORT / LEADSTREAM_KAFKA_CONTROLLER_PORT)"
  done

  local kdir="$RUN_DIR/kafka"
  rm -rf "$kdir" # fresh start: wipe data
  mkdir -p "$kdir/data" "$kdir/logs"

  cat >"$kdir/server.properties" <<EOF
# generated by infra/up.sh: single-node KRaft (combined broker + controller) on loopback
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$kdir/data
num.network.threads=2
num.io.threads=4
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=10
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
delete.topic.enable=true
log.retention.hours=24
log.segment.bytes=67108864
EOF

  cat >"$kdir/log4j.properties" <<EOF
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$kdir/logs/server.log
log4j.appender.file.MaxFileSize=20MB
log4j.appender.file.MaxBackupIndex=2
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
EOF

  local jvm=(-cp "$KAFKA_LIBS/*" -Djava.awt.headless=true
    "-Dlog4j.configuration=file:$kdir/log4j.properties" "-Dkafka.logs.dir=$kdir/logs")

  log "formatting kafka storage"
  JAVA="$JAVA" KAFKA_LIBS="$KAFKA_LIBS" KAFKA_LOG4J="$kdir/log4j.properties" \
    "$INFRA_DIR/kafka/format-storage.sh" "$kdir/server.properties" >"$kdir/logs/format.log" 2>&1 || {
    show_log "$kdir/logs/format.log"
    die "kafka-storage format failed"
  }

  log "starting kafka $KAFKA_VERSION on $KAFKA_BROKERS (controller 127.0.0.1:$KAFKA_CONTROLLER_PORT)"
  # shellcheck disable=SC2086 # KAFKA_HEAP is a list of JVM flags
  start_detached kafka "$kdir/logs/stdout.log" \
    "$JAVA" $KAFKA_HEAP -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError \
    "${jvm[@]}" kafka.Kafka "$kdir/server.properties"
  wait_ready kafka kafka.Kafka "$kdir/logs/server.log" kafka "$KAFKA_BROKERS"
  # Create __consumer_offsets now so the first consumer-group test does not pay for it.
  PROBE_TIMEOUT_MS=10000 node "$INFRA_DIR/probe.mjs" kafka "$KAFKA_BROKERS" --warm ||
    log "warning: consumer-group coordinator warm-up did not finish (tests may be slower)"
  log "kafka is up (pid $(cat "$RUN_DIR/kafka.pid"))"
}

pg_ready() { "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres -d postgres -t 3 </dev/null; }

# Set when this run creates the cluster: a FerretDB still running from before caches the metadata
# of the old one and must restart.
POSTGRES_FRESH=0

start_postgres() {
  local pgdir="$RUN_DIR/postgres"
  local data="$pgdir/data"
  if pid_alive postgres "$data"; then
    if pg_ready; then
      log "postgres already running (pid $(cat "$RUN_DIR/postgres.pid")) on 127.0.0.1:$POSTGRES_PORT"
      return 0
    fi
    log "postgres (pid $(cat "$RUN_DIR/postgres.pid")) is running but not answering; restarting"
    stop_pid postgres "$data"
  fi
  rm -f "$RUN_DIR/postgres.pid"
  port_in_use "$POSTGRES_PORT" && die "port 127.0.0.1:$POSTGRES_PORT is already in use by a process infra/ did not start (set LEADSTREAM_POSTGRES_PORT)"

  rm -rf "$pgdir" # fresh start: wipe data
  mkdir -p "$pgdir"
  if ((${#AS_PG[@]})); then
    chown "$POSTGRES_OS_USER:" "$pgdir"
    "${AS_PG[@]}" test -w "$pgdir" ||
      die "user $POSTGRES_OS_USER cannot write $pgdir (is a parent directory not searchable by others?); set LEADSTREAM_RUN_DIR"
  fi

  log "creating a private cluster ($("$PG_BIN/postgres" --version)) in $data"
  # Run from the cluster directory: its owner may not be allowed into the caller's.
  (cd "$pgdir" && "${AS_PG[@]}" "$PG_BIN/initdb" -D "$data" -U postgres --auth=trust \
    --encoding=UTF8 --locale=C) >"$pgdir/initdb.log" 2>&1 || {
    show_log "$pgdir/initdb.log"
    die "initdb failed (log: $pgdir/initdb.log)"
  }
  # TCP on loopback only; no Unix socket (a system cluster owns /var/run/postgresql).
  cat >"$data/pg_hba.conf" <<HBA
# generated by infra/up.sh: a throw-away test cluster, reachable from loopback only
host all all 127.0.0.1/32 trust
HBA
  cat >>"$data/postgresql.conf" <<CONF

# ---- generated by infra/up.sh
listen_addresses = '127.0.0.1'
port = $POSTGRES_PORT
unix_socket_directories = ''
# FerretDB opens a pool of up to 50 connections; headroom for psql and a second FerretDB.
max_connections = 200
shared_buffers = 256MB
log_min_messages = warning
log_line_prefix = '%m [%p] '
CONF
  # FerretDB stores a document as one jsonb value with its type metadata, so a webhook delivery
  # (about 3.6 KB) is compressed out of line, and FerretDB's filters scan (no index serves them):
  # every scan decompresses every row. lz4 halves what a compare-and-set update costs against the
  # default pglz (25 -> 12-15 ms among 4,500 deliveries; docs/chaos.md).
  if "$PG_BIN/pg_config" --configure 2>/dev/null | grep -q -- '--with-lz4'; then
    echo "default_toast_compression = lz4" >>"$data/postgresql.conf"
  fi

  log "starting postgres on 127.0.0.1:$POSTGRES_PORT"
  (cd "$pgdir" && start_detached postgres "$pgdir/postgres.log" "${AS_PG[@]}" "$PG_BIN/postgres" -D "$data")
  local deadline=$((SECONDS + START_TIMEOUT))
  until pg_ready; do
    if ! pid_alive postgres "$data"; then
      show_log "$pgdir/postgres.log"
      die "postgres exited during startup (log: $pgdir/postgres.log)"
    fi
    if ((SECONDS >= deadline)); then
      show_log "$pgdir/postgres.log"
      die "postgres did not answer within ${START_TIMEOUT}s (log: $pgdir/postgres.log)"
    fi
    sleep 0.2
  done
  "$PG_BIN/psql" -X -q -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c 'CREATE DATABASE ferretdb' </dev/null >>"$pgdir/initdb.log" 2>&1 || {
    show_log "$pgdir/initdb.log"
    die "could not create database ferretdb (log: $pgdir/initdb.log)"
  }
  POSTGRES_FRESH=1
  log "postgres is up (pid $(cat "$RUN_DIR/postgres.pid"))"
}

start_ferretdb() {
  # The command line names the backend's URL: a FerretDB started by an older up.sh (SQLite backend)
  # or for another cluster is replaced.
  local url_flag="--postgresql-url=$POSTGRES_URL"
  if pid_alive ferretdb ferretdb; then
    if ! pid_alive ferretdb "$url_flag"; then
      log "ferretdb (pid $(cat "$RUN_DIR/ferretdb.pid")) runs on another backend; restarting it on postgresql"
      stop_pid ferretdb ferretdb
    elif ((POSTGRES_FRESH)); then
      log "ferretdb (pid $(cat "$RUN_DIR/ferretdb.pid")) served the previous postgres cluster; restarting it"
      stop_pid ferretdb ferretdb
    elif probe mongodb "$MONGODB_URI"; then
      log "ferretdb already running (pid $(cat "$RUN_DIR/ferretdb.pid")) on $MONGODB_URI"
      return 0
    else
      log "ferretdb (pid $(cat "$RUN_DIR/ferretdb.pid")) is running but not answering; restarting"
      stop_pid ferretdb ferretdb
    fi
  fi
  rm -f "$RUN_DIR/ferretdb.pid"
  port_in_use "$FERRETDB_PORT" && die "port 127.0.0.1:$FERRETDB_PORT is already in use by a process infra/ did not start (set LEADSTREAM_FERRETDB_PORT)"

  local fdir="$RUN_DIR/ferretdb"
  rm -rf "$fdir" # the data is in postgres; only FerretDB's state file and log live here
  mkdir -p "$fdir/state"

  log "starting ferretdb $FERRETDB_VERSION (postgresql backend) on $MONGODB_URI"
  start_detached ferretdb "$fdir/ferretdb.log" \
    "$FERRETDB_BIN" \
    --handler=postgresql \
    "$url_flag" \
    "--state-dir=$fdir/state" \
    "--listen-addr=127.0.0.1:$FERRETDB_PORT" \
    --debug-addr=- \
    --telemetry=disable \
    --log-level=INFO \
    --log-format=text
  wait_ready ferretdb ferretdb "$fdir/ferretdb.log" mongodb "$MONGODB_URI"
  log "ferretdb is up (pid $(cat "$RUN_DIR/ferretdb.pid"))"
}

# clickhouse_ready: /ping answers "Ok." and a query runs (the stand-in opens its engine before it
# listens, so this is quick once the port is open).
clickhouse_ready() {
  "$CHDB_VENV/bin/python" - "$CLICKHOUSE_URL" <<'PY' >/dev/null 2>&1
import sys, urllib.request
url = sys.argv[1]
assert urllib.request.urlopen(url + "/ping", timeout=3).read() == b"Ok.\n"
assert urllib.request.urlopen(url + "/", data=b"SELECT 1", timeout=3).read() == b"1\n"
PY
}

start_clickhouse() {
  # The command line names the virtualenv: a stand-in running another chdb-core is replaced.
  if pid_alive clickhouse chdb-http/server.py; then
    if ! pid_alive clickhouse "$CHDB_VENV/bin/python"; then
      log "clickhouse (pid $(cat "$RUN_DIR/clickhouse.pid")) runs another chdb-core; restarting it on $CHDB_VERSION"
      stop_pid clickhouse chdb-http/server.py
    elif clickhouse_ready; then
      log "clickhouse already running (pid $(cat "$RUN_DIR/clickhouse.pid")) on $CLICKHOUSE_URL"
      return 0
    else
      log "clickhouse (pid $(cat "$RUN_DIR/clickhouse.pid")) is running but not answering; restarting"
      stop_pid clickhouse chdb-http/server.py
    fi
  fi
  rm -f "$RUN_DIR/clickhouse.pid"
  port_in_use "$CLICKHOUSE_PORT" && die "port 127.0.0.1:$CLICKHOUSE_PORT is already in use by a process infra/ did not start (set LEADSTREAM_CLICKHOUSE_PORT)"

  local cdir="$RUN_DIR/clickhouse"
  rm -rf "$cdir" # fresh start: wipe data
  mkdir -p "$cdir"

  log "starting clickhouse (test stand-in: chdb-core $CHDB_VERSION behind ClickHouse's HTTP interface) on $CLICKHOUSE_URL"
  start_detached clickhouse "$cdir/clickhouse.log" \
    "$CHDB_VENV/bin/python" "$CHDB_SERVER" --port "$CLICKHOUSE_PORT" --data "$cdir/data"
  local deadline=$((SECONDS + START_TIMEOUT))
  until clickhouse_ready; do
    if ! pid_alive clickhouse chdb-http/server.py; then
      show_log "$cdir/clickhouse.log"
      die "clickhouse exited during startup (log: $cdir/clickhouse.log)"
    fi
    if ((SECONDS >= deadline)); then
      show_log "$cdir/clickhouse.log"
      die "clickhouse did not answer within ${START_TIMEOUT}s (log: $cdir/clickhouse.log)"
    fi
    sleep 0.2
  done
  log "clickhouse is up (pid $(cat "$RUN_DIR/clickhouse.pid"))"
}

# ---------------------------------------------------------------------------------------------

install_kafka
install_ferretdb
install_postgres
install_chdb
start_kafka
start_postgres
start_ferretdb
start_clickhouse

cat >"$RUN_DIR/infra.env.tmp" <<EOF
KAFKA_BROKERS=$KAFKA_BROKERS
MONGODB_URI=$MONGODB_URI
CLICKHOUSE_URL=$CLICKHOUSE_URL
EOF
mv "$RUN_DIR/infra.env.tmp" "$RUN_DIR/infra.env"

log "servers are up; environment written to $RUN_DIR/infra.env:"
cat "$RUN_DIR/infra.env"
