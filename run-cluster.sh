#!/usr/bin/env bash
# Tries a Tablestream cluster on this machine, without Docker: Kafka brokers and three Tablestream
# instances, each answering every request, with one standby replica of every partition for fail-over.
#
#   ./run-cluster.sh                 one broker (the embedded one, in a process of its own), three instances
#   ./run-cluster.sh --brokers 3     three KRaft brokers (one controller quorum of three; every topic
#                                    replicated three times, a write kept by two before it is acknowledged)
#   ./run-cluster.sh --tls           over HTTPS (clients and instances between them), with a development
#                                    CA made in ./data-cluster/tls (TABLESTREAM_CLUSTER_TLS=on too);
#                                    combines with --brokers N
#   ./run-cluster.sh stop            stops them (SIGTERM: each instance leaves the group cleanly)
#   ./run-cluster.sh status          shows which processes run and which instances are ready
#
# Instances listen on 10002, 10003 and 10004 (TABLESTREAM_CLUSTER_PORTS="p1 p2 p3" to change). The one
# broker listens on 19092 (its controller on 19093); with --brokers N, broker i listens on
# 19092 + 2(i-1) and its controller on the port after (TABLESTREAM_CLUSTER_KAFKA_PORT moves the first).
# Everything lives under ./data-cluster (TABLESTREAM_CLUSTER_DIR): each process's data directory, log
# (<name>.log) and process id (<name>.pid: kafka or kafka-1, kafka-2, ...; node-1, node-2, node-3).
# Any other TABLESTREAM_* setting in the environment applies to every instance; with --brokers N,
# TABLESTREAM_CLUSTER_KAFKA_PROPERTIES="name=value ..." adds broker properties ({node} stands for a
# broker's id).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/java.sh
source scripts/ready.sh

DIR=${TABLESTREAM_CLUSTER_DIR:-data-cluster}
TLS=${TABLESTREAM_CLUSTER_TLS:-off}
PORTS=(${TABLESTREAM_CLUSTER_PORTS:-10002 10003 10004})
KAFKA_PORT=${TABLESTREAM_CLUSTER_KAFKA_PORT:-19092}
KAFKA_CONTROLLER_PORT=${TABLESTREAM_CLUSTER_KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}
HEAP=${TABLESTREAM_CLUSTER_HEAP:-512m}
KAFKA_HEAP=${TABLESTREAM_CLUSTER_KAFKA_HEAP:-512m}

running() { [ -f "$DIR/$1.pid" ] && kill -0 "$(cat "$DIR/$1.pid")" 2>/dev/null; }

names() {
  local i
  for i in "${!PORTS[@]}"; do echo "node-$((i + 1))"; done
}

# The brokers of the cluster in $DIR: "kafka" (one broker) or kafka-1 ... kafka-N.
brokers() {
  local f
  [ -d "$DIR/kafka" ] && echo kafka
  for f in "$DIR"/kafka-*.pid "$DIR"/kafka-*/server.properties; do
    [ -e "$f" ] || continue
    f=${f#"$DIR/"}; f=${f%.pid}; echo "${f%/server.properties}"
  done | sort -u -V
}

# Stops the processes named in $@ (SIGTERM to all of them at once, then waits for each): brokers stop
# together, since the last one alone has no controller quorum to leave the cluster through.
stop_all() {
  local name pid
  for name in "$@"; do
    if running "$name"; then kill -TERM "$(cat "$DIR/$name.pid")"; fi
  done
  for name in "$@"; do
    if [ -f "$DIR/$name.pid" ]; then
      pid=$(cat "$DIR/$name.pid")
      for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      if kill -0 "$pid" 2>/dev/null; then
        echo "$name (pid $pid) did not stop within 60 s; killing it" >&2
        kill -KILL "$pid"
      fi
      echo "stopped $name"
    fi
    rm -f "$DIR/$name.pid"
  done
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

BROKERS=1
COMMAND=start
while [ $# -gt 0 ]; do
  case "$1" in
    --brokers) BROKERS=${2:?--brokers needs a number}; shift 2 ;;
    --brokers=*) BROKERS=${1#--brokers=}; shift ;;
    --tls) TLS=on; shift ;;
    start | stop | status) COMMAND=$1; shift ;;
    *)
      echo "usage: $0 [--brokers N] [--tls] [start|stop|status]" >&2
      exit 2
      ;;
  esac
done
[[ "$BROKERS" =~ ^[1-9][0-9]*$ ]] || { echo "--brokers takes a number of brokers, not '$BROKERS'" >&2; exit 2; }
READY_SCHEME=http
[ "$TLS" = on ] && READY_SCHEME=https
# what the running instances speak, for status (kept by the start that started them)
[ "$COMMAND" = status ] && [ -f "$DIR/scheme" ] && READY_SCHEME=$(cat "$DIR/scheme")

case "$COMMAND" in
  stop)
    for name in $(names | sort -r); do stop_all "$name"; done
    stop_all $(brokers)
    exit 0
    ;;
  status)
    for name in $(brokers); do
      if running "$name"; then echo "$name: running (pid $(cat "$DIR/$name.pid"))"; else echo "$name: stopped"; fi
    done
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
esac

# A data directory belongs to one kind of cluster: its topics were created for it.
if [ "$BROKERS" = 1 ] && [ -f "$DIR/kafka-cluster.properties" ]; then
  echo "$DIR holds a cluster of several brokers: run $0 --brokers $(sed -n 's/^nodes=//p' "$DIR/kafka-cluster.properties"), or stop it and remove $DIR" >&2
  exit 1
fi
if [ "$BROKERS" != 1 ] && [ -d "$DIR/kafka" ]; then
  echo "$DIR holds a one-broker cluster: run $0 without --brokers, or stop it and remove $DIR" >&2
  exit 1
fi

find_jdk
source scripts/build.sh
build_if_changed
source scripts/aot-cache.sh
# as run-server.sh: its JDK, JVM options (JAVA_OPTS replaces them; the heap is HEAP) and AOT cache
CLASSPATH="$(ls server/target/server-*.jar | head -n 1):$(cat server/target/classpath.txt)"
OPTIONS="${JAVA_OPTS:-$(default_java_opts)} -Xmx$HEAP"
AOT=$(aot_cache_option "$CLASSPATH" "$OPTIONS")
mkdir -p "$DIR"

if [ "$BROKERS" = 1 ]; then
  if ! running kafka; then
    : >"$DIR/kafka.log"
    "$JAVA_HOME/bin/java" "-Xmx$KAFKA_HEAP" -cp "$CLASSPATH" io.tablestream.kafka.embedded.StandaloneBroker --data-dir "$DIR/kafka" \
      --port "$KAFKA_PORT" --controller-port "$KAFKA_CONTROLLER_PORT" >>"$DIR/kafka.log" 2>&1 &
    echo $! >"$DIR/kafka.pid"
  fi
  await_line kafka "$DIR/kafka.log" "ready in" 120
  BOOTSTRAP="127.0.0.1:$KAFKA_PORT"
else
  # Kafka's own broker (kafka.Kafka, from the jars on the classpath) on each node's server.properties,
  # written (and the log directory formatted, once) by LocalKafkaCluster.
  properties=()
  for p in ${TABLESTREAM_CLUSTER_KAFKA_PROPERTIES:-}; do properties+=(--property "$p"); done
  # its last line is the bootstrap address (before it, the log says which log directories it formatted)
  BOOTSTRAP=$("$JAVA_HOME/bin/java" -cp "$CLASSPATH" io.tablestream.kafka.embedded.LocalKafkaCluster prepare --dir "$DIR" \
    --nodes "$BROKERS" --port "$KAFKA_PORT" "${properties[@]+"${properties[@]}"}" | tail -n 1)
  for i in $(seq 1 "$BROKERS"); do
    name="kafka-$i"
    if running "$name"; then continue; fi
    : >"$DIR/$name.log"
    "$JAVA_HOME/bin/java" "-Xmx$KAFKA_HEAP" -cp "$CLASSPATH" kafka.Kafka "$DIR/$name/server.properties" >>"$DIR/$name.log" 2>&1 &
    echo $! >"$DIR/$name.pid"
  done
  if ! "$JAVA_HOME/bin/java" -cp "$CLASSPATH" io.tablestream.kafka.embedded.LocalKafkaCluster await --dir "$DIR" --timeout-ms 120000; then
    echo "the brokers did not all serve within 120 s; see $DIR/kafka-*.log" >&2
    exit 1
  fi
fi

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

# One instance, named $1, on port $2 (an extension point: add per-instance settings here).
start_instance() {
  local name=$1 port=$2
  : >"$DIR/$name.log"
  KAFKA_BOOTSTRAP_SERVERS="$BOOTSTRAP" \
  TABLESTREAM_PORT="$port" \
  TABLESTREAM_ADVERTISED_ADDRESS="127.0.0.1:$port" \
  TABLESTREAM_INSTANCE_ID="$name" \
  TABLESTREAM_DATA_DIR="$DIR/$name" \
  TABLESTREAM_STANDBY_REPLICAS="${TABLESTREAM_STANDBY_REPLICAS:-1}" \
  TABLESTREAM_GROUP_SESSION_TIMEOUT_MS="${TABLESTREAM_GROUP_SESSION_TIMEOUT_MS:-3000}" \
  TABLESTREAM_GROUP_HEARTBEAT_INTERVAL_MS="${TABLESTREAM_GROUP_HEARTBEAT_INTERVAL_MS:-500}" \
  TABLESTREAM_TRANSACTION_TIMEOUT_MS="${TABLESTREAM_TRANSACTION_TIMEOUT_MS:-20000}" \
    "$JAVA_HOME/bin/java" $OPTIONS $AOT -cp "$CLASSPATH" io.tablestream.server.Main >>"$DIR/$name.log" 2>&1 &
  echo $! >"$DIR/$name.pid"
}

for i in "${!PORTS[@]}"; do
  name="node-$((i + 1))"
  if running "$name"; then continue; fi
  start_instance "$name" "${PORTS[$i]}"
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
for name in $(brokers); do
  if [ "$name" = kafka ]; then address="127.0.0.1:$KAFKA_PORT"; else
    address="127.0.0.1:$((KAFKA_PORT + 2 * (${name#kafka-} - 1)))"; fi
  printf '  Kafka %-8s %s  (pid %s)\n' "$name" "$address" "$(cat "$DIR/$name.pid")"
done
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
