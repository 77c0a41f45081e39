#!/usr/bin/env bash
# Start real servers for tests as local processes on loopback (no Docker): a single-node Kafka
# (KRaft, combined broker+controller) and FerretDB v1 with the SQLite backend.
# Installs what is missing first (Kafka jars from Maven Central, FerretDB built with Go), all cached
# under ${LEADSTREAM_CACHE:-~/.cache/leadstream}. Idempotent: servers that are already running and
# answering are left alone. Writes infra/.run/infra.env. See infra/README.md.
set -euo pipefail

INFRA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUN_DIR="${LEADSTREAM_RUN_DIR:-$INFRA_DIR/.run}"
CACHE_DIR="${LEADSTREAM_CACHE:-$HOME/.cache/leadstream}"

KAFKA_PORT="${LEADSTREAM_KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${LEADSTREAM_KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
KAFKA_HEAP="${LEADSTREAM_KAFKA_HEAP:--Xmx768m -Xms256m}"
FERRETDB_PORT="${LEADSTREAM_FERRETDB_PORT:-27018}"
FERRETDB_VERSION="v1.24.2"
START_TIMEOUT="${LEADSTREAM_INFRA_TIMEOUT:-180}" # seconds per server

KAFKA_VERSION="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$INFRA_DIR/kafka/pom.xml")"
KAFKA_LIBS="$CACHE_DIR/kafka/$KAFKA_VERSION/libs"
FERRETDB_BIN="$CACHE_DIR/bin/ferretdb"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

KAFKA_BROKERS="127.0.0.1:$KAFKA_PORT"
MONGODB_URI="mongodb://127.0.0.1:$FERRETDB_PORT/"

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
  log "building FerretDB $FERRETDB_VERSION (SQLite backend) into $FERRETDB_BIN; takes a few minutes the first time"
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

start_ferretdb() {
  if pid_alive ferretdb ferretdb; then
    if probe mongodb "$MONGODB_URI"; then
      log "ferretdb already running (pid $(cat "$RUN_DIR/ferretdb.pid")) on $MONGODB_URI"
      return 0
    fi
    log "ferretdb (pid $(cat "$RUN_DIR/ferretdb.pid")) is running but not answering; restarting"
    stop_pid ferretdb ferretdb
  fi
  rm -f "$RUN_DIR/ferretdb.pid"
  port_in_use "$FERRETDB_PORT" && die "port 127.0.0.1:$FERRETDB_PORT is already in use by a process infra/ did not start (set LEADSTREAM_FERRETDB_PORT)"

  local fdir="$RUN_DIR/ferretdb"
  rm -rf "$fdir" # fresh start: wipe data
  mkdir -p "$fdir/data" "$fdir/state"

  log "starting ferretdb $FERRETDB_VERSION (sqlite) on $MONGODB_URI"
  start_detached ferretdb "$fdir/ferretdb.log" \
    "$FERRETDB_BIN" \
    --handler=sqlite \
    "--sqlite-url=file:$fdir/data/" \
    "--state-dir=$fdir/state" \
    "--listen-addr=127.0.0.1:$FERRETDB_PORT" \
    --debug-addr=- \
    --telemetry=disable \
    --log-level=INFO \
    --log-format=text
  wait_ready ferretdb ferretdb "$fdir/ferretdb.log" mongodb "$MONGODB_URI"
  log "ferretdb is up (pid $(cat "$RUN_DIR/ferretdb.pid"))"
}

# ---------------------------------------------------------------------------------------------

install_kafka
install_ferretdb
start_kafka
start_ferretdb

cat >"$RUN_DIR/infra.env.tmp" <<EOF
KAFKA_BROKERS=$KAFKA_BROKERS
MONGODB_URI=$MONGODB_URI
EOF
mv "$RUN_DIR/infra.env.tmp" "$RUN_DIR/infra.env"

log "servers are up; environment written to $RUN_DIR/infra.env:"
cat "$RUN_DIR/infra.env"
