package io.tablestream.kafka.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The configuration of the single-node KRaft broker: one process that is both broker and the only
 * controller voter, every internal topic with one replica, nothing deleted by age or size unless a
 * topic asks for it, and no implicit topic creation.
 */
record BrokerProperties(Path dataDirectory, String host, int brokerPort, int controllerPort,
                        long startupTimeoutMillis, Map<String, String> overrides, SecureListener secureListener) {

    /** A client listener beside the plain one, named by its security protocol ({@code SSL}, {@code SASL_SSL}, ...). */
    record SecureListener(String securityProtocol, int port) {
    }

    BrokerProperties(Path dataDirectory, String host, int brokerPort, int controllerPort, long startupTimeoutMillis,
                     Map<String, String> overrides) {
        this(dataDirectory, host, brokerPort, controllerPort, startupTimeoutMillis, overrides, null);
    }

    /** Partitions of {@code __consumer_offsets} and {@code __transaction_state}: few, one node. */
    static final int INTERNAL_TOPIC_PARTITIONS = 4;
    /** Log segment size: what a restart after a crash re-checks per partition, at most. */
    static final int SEGMENT_BYTES = 32 * 1024 * 1024;

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
        // One node in combined mode, with a static single-voter quorum: the voter's address comes
        // from this configuration on every start, so the node may come back on other ports.
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(EmbeddedKafkaBroker.NODE_ID));
        p.put("controller.quorum.voters", EmbeddedKafkaBroker.NODE_ID + "@" + address(controllerPort));
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
        // Kafka's own waits during startup (quorum, catching up, unfencing) give up instead of hanging.
        p.put("server.max.startup.time.ms", Long.toString(startupTimeoutMillis));
        // After a crash the controller (restarted with the broker) refuses the broker's new registration
        // until the session of its previous incarnation expires: 9 s by default, all of it added to every
        // restart. Broker and controller share this process, so a short session costs nothing on the
        // wire; it is kept long enough to ride out a GC pause or a starved CPU.
        p.put("broker.session.timeout.ms", "3000");
        p.put("broker.heartbeat.interval.ms", "500");

        // Topics belong to their owners, who create them explicitly.
        p.put("auto.create.topics.enable", "false");
        p.put("num.partitions", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");

        // Consumer groups and transactions on a single replica; exactly-once needs the latter.
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", Integer.toString(INTERNAL_TOPIC_PARTITIONS));
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", Integer.toString(INTERNAL_TOPIC_PARTITIONS));
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // A transaction left open by a crashed client holds back every read_committed reader of the
        // partitions it wrote until it times out; look for timed-out transactions every second, not
        // every ten, so that takes little more than the client's transaction timeout.
        p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        // Lets the instances of a cluster on this broker use session timeouts below Kafka's 6 s
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
        String literal = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        return literal + ":" + port;
    }
}
