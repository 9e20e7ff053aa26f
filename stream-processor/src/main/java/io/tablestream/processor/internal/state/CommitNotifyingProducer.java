package io.tablestream.processor.internal.state;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A stream thread's producer that tells the {@link CommittedKeyValueStore}s its transaction wrote
 * when that transaction committed (with the last changelog offset it wrote to each partition) or
 * aborted. Everything else is the producer Kafka Streams would have used, except that a
 * transaction the coordinator refuses is taken for the fence it is ({@link #fencedIfRefused}).
 */
final class CommitNotifyingProducer implements Producer<byte[], byte[]> {
    private final Producer<byte[], byte[]> delegate;
    /** The highest offset acknowledged per partition in the open transaction. */
    private volatile Map<TopicPartition, Long> written = new ConcurrentHashMap<>();

    CommitNotifyingProducer(Producer<byte[], byte[]> delegate) {
        this.delegate = delegate;
    }

    @Override
    public void initTransactions() {
        delegate.initTransactions();
    }

    @Override
    public void beginTransaction() throws ProducerFencedException {
        written = new ConcurrentHashMap<>();
        fencedIfRefused(delegate::beginTransaction);
    }

    @Override
    public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets,
                                         ConsumerGroupMetadata groupMetadata) throws ProducerFencedException {
        fencedIfRefused(() -> delegate.sendOffsetsToTransaction(offsets, groupMetadata));
    }

    /**
     * Commits, then lets the stores make the transaction's writes durable. Every send of the
     * transaction has completed (and run its callback) by the time the commit returns.
     */
    @Override
    public void commitTransaction() throws ProducerFencedException {
        fencedIfRefused(delegate::commitTransaction);
        Map<TopicPartition, Long> offsets = written;
        written = new ConcurrentHashMap<>();
        TransactionBoundStores.committed(offsets);
    }

    @Override
    public void abortTransaction() throws ProducerFencedException {
        written = new ConcurrentHashMap<>();
        TransactionBoundStores.aborted();
        fencedIfRefused(delegate::abortTransaction);
    }

    /**
     * Runs a transactional call, taking the coordinator's refusal of the transaction's state for a
     * fence. A commit that reaches the coordinator just after it aborted the same transaction on its
     * timeout (a producer that could not reach the brokers for a while: a stopped broker) is refused
     * with {@link InvalidTxnStateException}, after which every call of the producer fails with it.
     * Kafka Streams takes that for a fatal error: the thread dies, and the one that replaces it
     * restores its tasks' stores in full. The coordinator has aborted the transaction and moved the
     * producer's epoch on, which is what fencing is: as a {@link ProducerFencedException} the thread
     * gives up its tasks, starts a new producer and rejoins its group instead. Either way the
     * transaction did not commit.
     */
    static void fencedIfRefused(Runnable call) {
        try {
            call.run();
        } catch (InvalidTxnStateException e) {
            ProducerFencedException fenced = new ProducerFencedException(
                    "The transaction coordinator refused the transaction's state (" + e.getMessage() + ")");
            fenced.initCause(e);
            throw fenced;
        }
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        delegate.registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        delegate.unregisterMetricFromSubscription(metric);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        return send(record, null);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        Map<TopicPartition, Long> transaction = written;
        return delegate.send(record, (metadata, exception) -> {
            if (exception == null && metadata != null && metadata.hasOffset()) {
                transaction.merge(new TopicPartition(metadata.topic(), metadata.partition()), metadata.offset(), Math::max);
            }
            if (callback != null) {
                callback.onCompletion(metadata, exception);
            }
        });
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return delegate.partitionsFor(topic);
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return delegate.metrics();
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return delegate.clientInstanceId(timeout);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public void close(Duration timeout) {
        delegate.close(timeout);
    }
}
