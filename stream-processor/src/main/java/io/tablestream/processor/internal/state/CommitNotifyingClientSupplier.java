package io.tablestream.processor.internal.state;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * Kafka Streams' own clients, with each stream thread's producer a {@link CommitNotifyingProducer}.
 *
 * <p>A stream thread makes a new producer whenever its old one was fenced, which is what a broker
 * that stops answering causes (its transaction outlives the transaction timeout), and a thread that
 * replaces a failed one makes new clients of every kind. A new client starts from the bootstrap
 * brokers; one of them may be the broker that stopped, which accepts the connection and answers
 * nothing for the request timeout. So new clients start from the brokers that {@code liveBrokers}
 * names, when it names any, instead.
 *
 * <p>It also remembers the transactional id of every producer it made: this process's own, which
 * the check for a departed owner's transactions must never fence.
 */
public final class CommitNotifyingClientSupplier implements KafkaClientSupplier {
    private final KafkaClientSupplier clients = new DefaultKafkaClientSupplier();
    private final Supplier<Optional<List<String>>> liveBrokers;
    private final Set<String> transactionalIds = ConcurrentHashMap.newKeySet();

    /** @param liveBrokers the brokers known to run ({@code host:port}), if known */
    public CommitNotifyingClientSupplier(Supplier<Optional<List<String>>> liveBrokers) {
        this.liveBrokers = liveBrokers;
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return clients.getAdmin(bootstrappingFromLiveBrokers(config, liveBrokers.get()));
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        Object transactionalId = config.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        if (transactionalId != null) {
            transactionalIds.add(transactionalId.toString());
        }
        return new CommitNotifyingProducer(clients.getProducer(bootstrappingFromLiveBrokers(config, liveBrokers.get())));
    }

    /** Whether a producer this supplier made (in this process, since it started) has {@code transactionalId}. */
    public boolean madeProducer(String transactionalId) {
        return transactionalIds.contains(transactionalId);
    }

    /** {@code config} with its bootstrap servers replaced by {@code live}, when there are any. */
    static Map<String, Object> bootstrappingFromLiveBrokers(Map<String, Object> config, Optional<List<String>> live) {
        if (live.isEmpty() || live.get().isEmpty()) {
            return config;
        }
        Map<String, Object> changed = new HashMap<>(config);
        changed.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", live.get()));
        return changed;
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return clients.getConsumer(bootstrappingFromLiveBrokers(config, liveBrokers.get()));
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return clients.getRestoreConsumer(bootstrappingFromLiveBrokers(config, liveBrokers.get()));
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return clients.getGlobalConsumer(bootstrappingFromLiveBrokers(config, liveBrokers.get()));
    }
}
