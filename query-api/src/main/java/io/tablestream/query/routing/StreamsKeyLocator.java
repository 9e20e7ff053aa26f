package io.tablestream.query.routing;

import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.processor.store.LocalReplicas;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.processor.store.StoreReplica;
import io.tablestream.schemas.LogPartitioner;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@link KeyLocator} over Kafka Streams' metadata: a key's partition comes from the log's partition
 * function ({@link LogPartitioner}, also what {@link KafkaStreams#queryMetadataForKey} is given),
 * its hosts from the assignment every instance learns at each rebalance, each instance named by
 * its {@code application.server} (the advertised address). Without an advertised address this is
 * a single node: every partition is read here. The instances of a cluster all serve HTTPS or all
 * plain HTTP, so the scheme of another instance's address is this instance's own.
 */
public final class StreamsKeyLocator implements KeyLocator {
    /** The log's partition function, as Kafka Streams' metadata lookups take it. */
    private static final StreamPartitioner<String, Object> PARTITIONER =
            (topic, key, value, partitions) -> Optional.of(Set.of(LogPartitioner.partitionOf(key, partitions)));

    private final KafkaStreams streams;
    private final LocalReplicas local;
    private final String commandsTopic;
    private final int partitions;
    private final Instance self;
    private final long standbyMaxLag;
    private final String scheme;

    /**
     * @param self this instance as the others reach it, or null on a single node
     * @param standbyMaxLag how many client writes a standby may lack ({@link LocalReplicas#lag}) and still serve reads
     * @param https whether the instances serve HTTPS (else plain HTTP) at their advertised addresses
     */
    public StreamsKeyLocator(KafkaStreams streams, LocalReplicas local, String commandsTopic, int partitions,
                             Instance self, long standbyMaxLag, boolean https) {
        this.streams = streams;
        this.local = local;
        this.commandsTopic = commandsTopic;
        this.partitions = partitions;
        this.self = self;
        this.standbyMaxLag = standbyMaxLag;
        this.scheme = https ? "https://" : "http://";
    }

    @Override
    public int partitionOf(CommandKey key) {
        return LogPartitioner.partitionOf(key, partitions);
    }

    @Override
    public int partitions() {
        return partitions;
    }

    @Override
    public Placement locate(CommandKey key) {
        int partition = partitionOf(key);
        if (self == null) {
            return localPlacement(partition);
        }
        KeyQueryMetadata metadata;
        try {
            metadata = streams.queryMetadataForKey(StoreNames.ENTITIES, key.value(), PARTITIONER);
        } catch (RuntimeException e) {
            return new Placement(partition, List.of()); // not running (starting, stopping): nowhere known
        }
        if (metadata == null || metadata.partition() != partition) {
            return new Placement(partition, List.of()); // not initialized yet, or a rebalance is under way
        }
        return placement(partition, instanceOf(metadata.activeHost()),
                metadata.standbyHosts().stream().map(StreamsKeyLocator::instanceOf).toList());
    }

    @Override
    public List<Placement> locateAll() {
        List<Placement> placements = new ArrayList<>(partitions);
        if (self == null) {
            for (int p = 0; p < partitions; p++) {
                placements.add(localPlacement(p));
            }
            return placements;
        }
        List<Instance> active = new ArrayList<>(partitions);
        List<List<Instance>> standbys = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            active.add(null);
            standbys.add(new ArrayList<>());
        }
        Collection<StreamsMetadata> all;
        try {
            all = streams.metadataForAllStreamsClients();
        } catch (RuntimeException e) {
            all = List.of();
        }
        for (StreamsMetadata m : all) {
            Instance instance = instanceOf(m.hostInfo());
            for (TopicPartition tp : m.topicPartitions()) {
                if (tp.topic().equals(commandsTopic) && tp.partition() < partitions) {
                    active.set(tp.partition(), instance);
                }
            }
            for (TopicPartition tp : m.standbyTopicPartitions()) {
                if (tp.topic().equals(commandsTopic) && tp.partition() < partitions) {
                    standbys.get(tp.partition()).add(instance);
                }
            }
        }
        for (int p = 0; p < partitions; p++) {
            placements.add(placement(p, active.get(p), standbys.get(p)));
        }
        return placements;
    }

    /**
     * Active first, then this instance's standby (when fresh enough), then the other standbys; no copy
     * of this instance while its copies are not {@link LocalReplicas#current current}.
     */
    private Placement placement(int partition, Instance active, List<Instance> standbys) {
        List<Replica> replicas = new ArrayList<>(1 + standbys.size());
        boolean current = local.current();
        if (active != null && (current || !active.equals(self))) {
            replicas.add(active.equals(self) ? Replica.localActive() : new Replica(active, false));
        }
        if (current && standbys.contains(self) && standbyIsFresh(partition)) {
            replicas.add(Replica.localStandby());
        }
        for (Instance standby : standbys) {
            if (standby != null && !standby.equals(self)) {
                replicas.add(new Replica(standby, true));
            }
        }
        return new Placement(partition, replicas);
    }

    private Placement localPlacement(int partition) {
        return standbyIsFresh(partition) && !local.active().contains(partition)
                ? new Placement(partition, List.of(Replica.localActive(), Replica.localStandby()))
                : new Placement(partition, List.of(Replica.localActive()));
    }

    @Override
    public Optional<StoreReplica> localCopy(int partition, boolean standbyAllowed) {
        if (self != null && !local.current()) {
            return Optional.empty(); // cut off from the cluster: its copies may be others' now
        }
        if (local.active().contains(partition)) {
            // Active only: a task that just became active and is still restoring is not served.
            return Optional.of(StoreReplica.ACTIVE);
        }
        if (standbyAllowed && local.standby().contains(partition) && standbyIsFresh(partition)) {
            return Optional.of(StoreReplica.ACTIVE_OR_STANDBY);
        }
        return local.active().contains(partition) ? Optional.of(StoreReplica.ACTIVE) : Optional.empty();
    }

    private boolean standbyIsFresh(int partition) {
        OptionalLong lag = local.lag(partition);
        return lag.isPresent() && lag.getAsLong() <= standbyMaxLag;
    }

    @Override
    public URI uriOf(Instance instance, String rawPath, String rawQuery) {
        // The multi-argument URI constructors would encode the path again: it stays exactly as the
        // client sent it, which is what its signature covers. Only characters a URI cannot hold
        // are escaped in the query (the receiving server decodes them to the same text).
        String query = rawQuery == null || rawQuery.isEmpty() ? "" : "?" + escapeIllegal(rawQuery);
        try {
            return new URI(scheme + instance + rawPath + query);
        } catch (URISyntaxException e) {
            throw TableServiceException.of(ErrorCode.INVALID_URI, "The request URI cannot be forwarded as it is.", e);
        }
    }

    private static String escapeIllegal(String raw) {
        StringBuilder out = null;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            boolean legal = c < 0x80 && (Character.isLetterOrDigit(c) || "-._~!$&'()*+,;=:@/?%".indexOf(c) >= 0);
            if (legal) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(raw.length() + 16).append(raw, 0, i);
            }
            int cp = raw.codePointAt(i);
            for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
            i += Character.charCount(cp) - 1;
        }
        return out == null ? raw : out.toString();
    }

    /** The instance an assignment names, or null when it names none ({@link HostInfo#unavailable()}). */
    private static Instance instanceOf(HostInfo host) {
        if (host == null || host.port() <= 0 || host.host() == null || host.host().isBlank()) {
            return null;
        }
        return new Instance(host.host(), host.port());
    }
}
