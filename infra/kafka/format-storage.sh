#!/usr/bin/env bash
# Formats a KRaft log directory: format-storage.sh SERVER_PROPERTIES [CLUSTER_ID]
#
# Without CLUSTER_ID a fresh one is generated (16 random bytes, base64url, never starting with '-'
# as Kafka's own Uuid.randomUuid guarantees). The id is passed as --cluster-id=VALUE so that even
# an id starting with '-' is read as a value, not as an option (CI once failed on exactly that).
# Needs the Kafka jars that infra/up.sh caches; JAVA and KAFKA_LIBS may be set by the caller.
set -euo pipefail

KAFKA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_DIR="${LEADSTREAM_CACHE:-$HOME/.cache/leadstream}"
KAFKA_VERSION="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$KAFKA_DIR/pom.xml")"
KAFKA_LIBS="${KAFKA_LIBS:-$CACHE_DIR/kafka/$KAFKA_VERSION/libs}"
JAVA="${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}"

config="${1:?usage: format-storage.sh SERVER_PROPERTIES [CLUSTER_ID]}"
cluster_id="${2:-}"
if [[ -z "$cluster_id" ]]; then
  cluster_id="$(node -e '
    const { randomBytes } = require("node:crypto");
    let id;
    do id = randomBytes(16).toString("base64url"); while (id.startsWith("-"));
    process.stdout.write(id);')"
fi

[[ -d "$KAFKA_LIBS" ]] || { echo "Kafka jars not found in $KAFKA_LIBS (run npm run infra:up)" >&2; exit 2; }

echo "cluster id $cluster_id"
exec "$JAVA" -Xmx256m -cp "$KAFKA_LIBS/*" -Djava.awt.headless=true \
  ${KAFKA_LOG4J:+"-Dlog4j.configuration=file:$KAFKA_LOG4J"} \
  kafka.tools.StorageTool format "--cluster-id=$cluster_id" -c "$config"
