package io.tablestream.kafka.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration of one KRaft node that is both a broker and a controller voter: alone (the
 * embedded single-node broker, every internal topic with one replica) or one of the nodes of a
 * static quorum ({@link LocalKafkaCluster}: three replicas of every topic, two in sync for a write),
 * nothing deleted by age or size unless a topic asks for it, and no implicit topic creation.
 *
 * @param quorum this node's id and the controller addresses of every voter
 * @param startupTimeoutMillis how long Kafka's own start-up waits may take; 0 for Kafka's default
 */
record BrokerProperties(Path dataDirectory, String host, int brokerPort, int controllerPort, Quorum quorum,
                        long startupTimeoutMillis, Map<String, String> overrides, SecureListener secureListener) {

    /** A client listener beside the plain one, named by its security protocol ({@code SSL}, {@code SASL_SSL}, ...). */
    record SecureListener(String securityProtocol, int port) {
    }

    /** One node of a quorum, without a secure listener. */
    BrokerProperties(Path dataDirectory, String host, int brokerPort, int controllerPort, Quorum quorum,
                     long startupTimeoutMillis, Map<String, String> overrides) {
        this(dataDirectory, host, brokerPort, controllerPort, quorum, startupTimeoutMillis, overrides, null);
    }

    /** Partitions of {@code __consumer_offsets} and {@code __transaction_state}: few, one node. */
    static final int INTERNAL_TOPIC_PARTITIONS = 4;
    /** Log segment size: what a restart after a crash re-checks per partition, at most. */
    static final int SEGMENT_BYTES = 32 * 1024 * 1024;

    /**
     * A static quorum: node {@code i} (from 1) is a voter whose controller listens at
     * {@code controllers.get(i - 1)}; {@code nodeId} is this node.
     */
    record Quorum(int nodeId, List<String> controllers) {
        Quorum {
            controllers = List.copyOf(controllers);
            if (nodeId < 1 || nodeId > controllers.size()) {
                throw new IllegalArgumentException("node " + nodeId + " is not one of the " + controllers.size() + " voters");
            }
        }

        /** Replicas of every topic: three, or as many as there are nodes. */
        int replicas() {
            return Math.min(3, controllers.size());
        }

        /** Replicas that must have a write before it is acknowledged ({@code acks=all}): two of three, else one. */
        int minInSyncReplicas() {
            return replicas() >= 3 ? 2 : 1;
        }

        String voters() {
            StringBuilder voters = new StringBuilder();
            for (int i = 0; i < controllers.size(); i++) {
                voters.append(i == 0 ? "" : ",").append(i + 1).append('@').append(controllers.get(i));
            }
            return voters.toString();
        }
    }

    /** The single-node broker: node 1, the only voter. */
    BrokerProperties(Path dataDirectory, String host, int brokerPort, int controllerPort, long startupTimeoutMillis,
                     Map<String, String> overrides) {
        this(dataDirectory, host, brokerPort, controllerPort, startupTimeoutMillis, overrides, null);
    }

    /** The single-node broker with a secure listener (or none, if null). */
    BrokerProperties(Path dataDirectory, String host, int brokerPort, int controllerPort, long startupTimeoutMillis,
                     Map<String, String> overrides, SecureListener secureListener) {
        this(dataDirectory, host, brokerPort, controllerPort,
                new Quorum(EmbeddedKafkaBroker.NODE_ID, List.of(address(host, controllerPort))), startupTimeoutMillis,
                overrides, secureListener);
    }

    BrokerProperties {
        overrides = Map.copyOf(overrides);
    }

    String bootstrapServers() {
        return address(brokerPort);
    }

    /** {@code host:port} of the secure listener, or null without one. */
    String secureBootstrapServers() {
        return secureListener == null ? null : address(secureListener.port());
    }

    Map<String, String> asMap() {
        Map<String, String> p = new LinkedHashMap<>();
        // Combined mode, with a static quorum: the voters' addresses come from this configuration on
        // every start, so a single node may come back on other ports.
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(quorum.nodeId()));
        p.put("controller.quorum.voters", quorum.voters());
        p.put("controller.listener.names", EmbeddedKafkaBroker.CONTROLLER_LISTENER);
        p.put("inter.broker.listener.name", EmbeddedKafkaBroker.BROKER_LISTENER);
        String secure = secureListener == null ? ""
                : "," + secureListener.securityProtocol() + "://" + address(secureListener.port());
        p.put("listeners", EmbeddedKafkaBroker.BROKER_LISTENER + "://" + address(brokerPort) + ","
                + EmbeddedKafkaBroker.CONTROLLER_LISTENER + "://" + address(controllerPort) + secure);
        p.put("advertised.listeners", EmbeddedKafkaBroker.BROKER_LISTENER + "://" + address(brokerPort) + secure);
        p.put("listener.security.protocol.map", EmbeddedKafkaBroker.BROKER_LISTENER + ":PLAINTEXT,"
                + EmbeddedKafkaBroker.CONTROLLER_LISTENER + ":PLAINTEXT" + (secureListener == null ? ""
                : "," + secureListener.securityProtocol() + ":" + secureListener.securityProtocol()));
        p.put("log.dirs", dataDirectory.toString());
        if (startupTimeoutMillis > 0) {
            // Kafka's own waits during startup (quorum, catching up, unfencing) give up instead of hanging.
            p.put("server.max.startup.time.ms", Long.toString(startupTimeoutMillis));
        }
        // After a crash the controller refuses the broker's new registration until the session of its
        // previous incarnation expires, and a broker that died keeps leading its partitions until its
        // session expires: 9 s by default, added to every restart of a single node and to every
        // broker failure in a cluster. 3 s still rides out a GC pause or a starved CPU. The controller
        // drops a heartbeat that waited in its queue longer than the interval (Kafka logs that as an
        // ERROR, though the heartbeat still counts): an interval of 1 s, not less, keeps that rare on a
        // busy machine.
        p.put("broker.session.timeout.ms", "3000");
        p.put("broker.heartbeat.interval.ms", "1000");
        // What a broker waits for another broker's answer (transaction markers, the transaction checks
        // of produce requests): 30 s by default. A broker that stops answering without closing its
        // connections (paused, overloaded, a half-open network) held a transaction's markers, and with
        // them every read_committed reader of the partitions it had led, for those 30 s, long after its
        // partitions had new leaders; and every transactional produce whose check went to it as the
        // transaction's coordinator. On several brokers 1.5 s, below the instances' own Kafka clients'
        // request timeout (2 s there): a leader still waiting on a stopped coordinator then answers
        // the producer with a retriable error over a connection that stays open, instead of the
        // producer giving up on that healthy broker too (closing the connection and every request on
        // it). A single broker only ever asks itself: 5 s, so a busy moment is not taken for a failure.
        p.put("request.timeout.ms", quorum.controllers().size() > 1 ? "1500" : "5000");

        // Topics belong to their owners, who create them explicitly.
        p.put("auto.create.topics.enable", "false");
        p.put("num.partitions", "1");
        String replicas = Integer.toString(quorum.replicas());
        String minInSync = Integer.toString(quorum.minInSyncReplicas());
        p.put("default.replication.factor", replicas);
        p.put("min.insync.replicas", minInSync);

        // Consumer groups and transactions (exactly-once needs them) as replicated as everything else.
        p.put("offsets.topic.replication.factor", replicas);
        p.put("offsets.topic.num.partitions", Integer.toString(INTERNAL_TOPIC_PARTITIONS));
        p.put("transaction.state.log.replication.factor", replicas);
        p.put("transaction.state.log.min.isr", minInSync);
        p.put("transaction.state.log.num.partitions", Integer.toString(INTERNAL_TOPIC_PARTITIONS));
        p.put("share.coordinator.state.topic.replication.factor", replicas);
        p.put("share.coordinator.state.topic.min.isr", minInSync);
        p.put("group.initial.rebalance.delay.ms", "0");
        // A transaction left open by a crashed client holds back every read_committed reader of the
        // partitions it wrote until it times out; look for timed-out transactions every second, not
        // every ten, so that takes little more than the client's transaction timeout.
        p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        // Lets the instances of a cluster on these brokers use session timeouts below Kafka's 6 s
        // floor, so a crashed one is noticed sooner (run-cluster.sh uses 3 s).
        p.put("group.min.session.timeout.ms", "1000");

        // Data is kept until a topic says otherwise, committed offsets too: a node that was down for
        // weeks must resume where it stopped, not from a reset position.
        p.put("log.retention.ms", "-1");
        p.put("log.retention.bytes", "-1");
        p.put("offsets.retention.minutes", Integer.toString(Integer.MAX_VALUE));

        // After a crash the broker checks every log from its last recovery point, which only moves when a
        // segment rolls (and is flushed) and is saved every checkpoint interval: with 1 GiB segments a
        // table of a million rows was checked in full at every restart. Small segments and a frequent
        // checkpoint keep that work to the newest few MiB of each partition.
        p.put("log.segment.bytes", Integer.toString(SEGMENT_BYTES));
        p.put("log.flush.offset.checkpoint.interval.ms", "10000");
        p.put("num.recovery.threads.per.data.dir", "2");

        // Request threads for a broker that shares its process (and its cores) with its only clients:
        // Kafka's 8 request handlers and 3 network threads each take a wake-up per request they pick,
        // which here cost about as much CPU as the requests themselves (measured, one run each: 669
        // against 778 µs of server CPU per write with 16 writers, at a higher rate).
        p.put("num.io.threads", "2");
        p.put("num.network.threads", "1");

        // The log cleaner (compacted changelogs) preallocates this buffer; 128 MiB is a lot in-process.
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(32 * 1024 * 1024));

        p.putAll(overrides);
        return p;
    }

    private String address(int port) {
        return address(host, port);
    }

    /** {@code host:port}, an IPv6 literal in brackets. */
    static String address(String host, int port) {
        String literal = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        return literal + ":" + port;
    }
}
