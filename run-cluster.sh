#!/usr/bin/env bash
# Tries a Tablestream cluster on this machine, without Docker: one Kafka broker (the embedded one, in
# a process of its own) and three Tablestream instances, each answering every request, with one
# standby replica of every partition for fail-over.
#
#   ./run-cluster.sh           builds, starts the broker and the instances, waits until they serve
#   ./run-cluster.sh --tls     the same over HTTPS (clients and instances between them), with a
#                              development CA made in ./data-cluster/tls (TABLESTREAM_CLUSTER_TLS=on too)
#   ./run-cluster.sh stop      stops them (SIGTERM: each instance leaves the group cleanly)
#   ./run-cluster.sh status    shows which processes run and which instances are ready
#
# Instances listen on 10002, 10003 and 10004 (TABLESTREAM_CLUSTER_PORTS="p1 p2 p3" to change), the
# broker on 19092 (TABLESTREAM_CLUSTER_KAFKA_PORT). Everything lives under ./data-cluster: each
# process's data directory, log (<name>.log) and process id (<name>.pid: kafka, node-1, node-2,
# node-3). Any other TABLESTREAM_* setting in the environment applies to every instance.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/java.sh
source scripts/ready.sh

DIR=data-cluster
TLS=${TABLESTREAM_CLUSTER_TLS:-off}
arguments=()
for argument in "$@"; do
  if [ "$argument" = --tls ]; then TLS=on; else arguments+=("$argument"); fi
done
set -- "${arguments[@]+"${arguments[@]}"}"
READY_SCHEME=http
[ "$TLS" = on ] && READY_SCHEME=https
# what the running instances speak, for status (kept by the start that started them)
[ "${1:-start}" = status ] && [ -f "$DIR/scheme" ] && READY_SCHEME=$(cat "$DIR/scheme")
PORTS=(${TABLESTREAM_CLUSTER_PORTS:-10002 10003 10004})
KAFKA_PORT=${TABLESTREAM_CLUSTER_KAFKA_PORT:-19092}
KAFKA_CONTROLLER_PORT=${TABLESTREAM_CLUSTER_KAFKA_CONTROLLER_PORT:-19093}
HEAP=${TABLESTREAM_CLUSTER_HEAP:-512m}

running() { [ -f "$DIR/$1.pid" ] && kill -0 "$(cat "$DIR/$1.pid")" 2>/dev/null; }

names() {
  local i
  for i in "${!PORTS[@]}"; do echo "node-$((i + 1))"; done
}

stop_one() {
  local name=$1
  if running "$name"; then
    local pid
    pid=$(cat "$DIR/$name.pid")
    kill -TERM "$pid"
    for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "$name (pid $pid) did not stop within 60 s; killing it" >&2
      kill -KILL "$pid"
    fi
    echo "stopped $name"
  fi
  rm -f "$DIR/$name.pid"
}

# Waits until $2 (a log file) has a line matching $3, or the process $1 ends, or $4 seconds pass.
await_line() {
  local name=$1 log=$2 pattern=$3 seconds=$4
  for _ in $(seq 1 $((seconds * 10))); do
    if grep -q "$pattern" "$log" 2>/dev/null; then return 0; fi
    if ! running "$name"; then
      echo "$name ended before it was ready; the end of $log:" >&2
      tail -n 30 "$log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "$name was not ready within $seconds s; see $log" >&2
  return 1
}

case "${1:-start}" in
  stop)
    for name in $(names | sort -r); do stop_one "$name"; done
    stop_one kafka
    exit 0
    ;;
  status)
    if running kafka; then echo "kafka: running (pid $(cat "$DIR/kafka.pid"))"; else echo "kafka: stopped"; fi
    for i in "${!PORTS[@]}"; do
      name="node-$((i + 1))"
      if running "$name"; then
        ready=$(http_status 127.0.0.1 "${PORTS[$i]}" /_health/ready)
        echo "$name: running (pid $(cat "$DIR/$name.pid")), $([ "$ready" = 200 ] && echo ready || echo "not ready ($ready)")"
      else
        echo "$name: stopped"
      fi
    done
    exit 0
    ;;
  start) ;;
  *)
    echo "usage: $0 [start|stop|status]" >&2
    exit 2
    ;;
esac

find_jdk
source scripts/build.sh
build_if_changed
source scripts/aot-cache.sh
# as run-server.sh: its JDK, JVM options (JAVA_OPTS replaces them; the heap is HEAP) and AOT cache
CLASSPATH="$(ls server/target/server-*.jar | head -n 1):$(cat server/target/classpath.txt)"
OPTIONS="${JAVA_OPTS:-$(default_java_opts)} -Xmx$HEAP"
AOT=$(aot_cache_option "$CLASSPATH" "$OPTIONS")
mkdir -p "$DIR"

if ! running kafka; then
  : >"$DIR/kafka.log"
  "$JAVA_HOME/bin/java" -Xmx512m -cp "$CLASSPATH" io.tablestream.kafka.embedded.StandaloneBroker --data-dir "$DIR/kafka" \
    --port "$KAFKA_PORT" --controller-port "$KAFKA_CONTROLLER_PORT" >>"$DIR/kafka.log" 2>&1 &
  echo $! >"$DIR/kafka.pid"
fi
await_line kafka "$DIR/kafka.log" "ready in" 120

echo "$READY_SCHEME" >"$DIR/scheme"
if [ "$TLS" = on ]; then
  # the instances' certificate (127.0.0.1 and localhost: all three run here) and the CA they trust;
  # your own with TABLESTREAM_TLS_CERT_FILE, TABLESTREAM_TLS_KEY_FILE and TABLESTREAM_TLS_TRUST_FILE
  if [ -z "${TABLESTREAM_TLS_CERT_FILE:-}" ]; then
    [ -f "$DIR/tls/server.pem" ] || scripts/dev-certificates.sh "$DIR/tls" >/dev/null
    export TABLESTREAM_TLS_CERT_FILE="$DIR/tls/server.pem" TABLESTREAM_TLS_KEY_FILE="$DIR/tls/server-key.pem" \
      TABLESTREAM_TLS_TRUST_FILE="$DIR/tls/ca.pem"
  fi
fi
for i in "${!PORTS[@]}"; do
  name="node-$((i + 1))"
  port=${PORTS[$i]}
  if running "$name"; then continue; fi
  : >"$DIR/$name.log"
  KAFKA_BOOTSTRAP_SERVERS="127.0.0.1:$KAFKA_PORT" \
  TABLESTREAM_PORT="$port" \
  TABLESTREAM_ADVERTISED_ADDRESS="127.0.0.1:$port" \
  TABLESTREAM_INSTANCE_ID="$name" \
  TABLESTREAM_DATA_DIR="$DIR/$name" \
  TABLESTREAM_STANDBY_REPLICAS="${TABLESTREAM_STANDBY_REPLICAS:-1}" \
  TABLESTREAM_GROUP_SESSION_TIMEOUT_MS="${TABLESTREAM_GROUP_SESSION_TIMEOUT_MS:-3000}" \
  TABLESTREAM_GROUP_HEARTBEAT_INTERVAL_MS="${TABLESTREAM_GROUP_HEARTBEAT_INTERVAL_MS:-500}" \
  TABLESTREAM_TRANSACTION_TIMEOUT_MS="${TABLESTREAM_TRANSACTION_TIMEOUT_MS:-5000}" \
    "$JAVA_HOME/bin/java" $OPTIONS $AOT -cp "$CLASSPATH" io.tablestream.server.Main >>"$DIR/$name.log" 2>&1 &
  echo $! >"$DIR/$name.pid"
done
for i in "${!PORTS[@]}"; do
  name="node-$((i + 1))"
  if ! await_ready 127.0.0.1 "${PORTS[$i]}" "$(cat "$DIR/$name.pid")" 300; then
    if running "$name"; then
      echo "$name did not report ready (GET /_health/ready) within 300 s; see $DIR/$name.log" >&2
    else
      echo "$name ended before it was ready; the end of $DIR/$name.log:" >&2
      tail -n 30 "$DIR/$name.log" >&2
    fi
    exit 1
  fi
  echo "$name ready (GET $READY_SCHEME://127.0.0.1:${PORTS[$i]}/_health/ready answered 200)"
done

echo
echo "Tablestream cluster running (stop it with: $0 stop):"
echo "  Kafka broker  127.0.0.1:$KAFKA_PORT  (pid $(cat "$DIR/kafka.pid"))"
for i in "${!PORTS[@]}"; do
  echo "  node-$((i + 1))        $READY_SCHEME://127.0.0.1:${PORTS[$i]}/devstoreaccount1  (pid $(cat "$DIR/node-$((i + 1)).pid"))"
done
echo
echo "Connection string (any instance answers every request):"
echo "  DefaultEndpointsProtocol=$READY_SCHEME;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=$READY_SCHEME://127.0.0.1:${PORTS[0]}/devstoreaccount1;"
if [ "$TLS" = on ] && [ -f "$DIR/tls/ca.pem" ]; then
  echo
  echo "Clients trust the development CA $DIR/tls/ca.pem (curl --cacert $DIR/tls/ca.pem; Java:"
  echo "  -Djavax.net.ssl.trustStore=$DIR/tls/truststore.p12 -Djavax.net.ssl.trustStorePassword=changeit)."
fi
