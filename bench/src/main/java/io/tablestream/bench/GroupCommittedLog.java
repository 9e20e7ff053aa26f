package io.tablestream.bench;

import io.tablestream.bench.measure.Percentiles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * How the owner of a topic's partitions would append writes it had decided itself, answering each
 * only once it is durable. Kafka has no conditional append: the only fence against another
 * instance appending to the same partition (an owner that lost it in a rebalance and does not know
 * yet) is the transactional id, whose {@code initTransactions} by the next owner aborts the
 * previous one's open transaction. A record appended inside a transaction is therefore durable
 * only once that transaction has committed, and {@link #append} completes then, not at the
 * broker's acknowledgement. Partitions move between instances one by one, so each has its own
 * transactional producer (acks=all, no linger, as the command log's). Commits are grouped: per
 * partition a committer thread begins a transaction, lets in the sends waiting for it, and commits
 * as soon as at least one record is in (the previous commit has returned by then), completing
 * every append the commit covered.
 */
final class GroupCommittedLog implements AutoCloseable {
    private final List<Owner> owners;
    private final LongAdder commits = new LongAdder();
    private final LongAdder committed = new LongAdder();
    private boolean closed;
    /** How long each commitTransaction took, since the last {@link #restartCommitTimes}. */
    private volatile Percentiles commitTimes = new Percentiles();

    /** Starts one producer and committer per partition of {@code topic}; {@code clientId} names them. */
    GroupCommittedLog(String bootstrap, String topic, int partitions, String clientId) {
        owners = IntStream.range(0, partitions).mapToObj(p -> new Owner(bootstrap, topic, p, clientId)).toList();
        owners.forEach(Owner::start);
    }

    /** Appends one record to {@code partition}; the future completes when the transaction holding it has committed. */
    CompletableFuture<Void> append(int partition, byte[] key, byte[] value) throws InterruptedException {
        return owners.get(partition).append(key, value);
    }

    /** Transactions committed so far, over every partition. */
    long commits() {
        return commits.sum();
    }

    /** Records in the transactions committed so far. */
    long committedRecords() {
        return committed.sum();
    }

    /** Starts measuring commit times afresh; returns the new measure. */
    Percentiles restartCommitTimes() {
        commitTimes = new Percentiles();
        return commitTimes;
    }

    /** Records the producers have sent again so far (a transaction's first send to a partition is refused
     *  while the partition's previous transaction is still completing). */
    long retries() {
        return owners.stream().mapToLong(o -> o.producer.metrics().entrySet().stream()
                .filter(m -> m.getKey().name().equals("record-retry-total") && m.getKey().group().equals("producer-metrics"))
                .mapToLong(m -> ((Number) m.getValue().metricValue()).longValue()).sum()).sum();
    }

    /** Commits what was sent, stops the committers and closes the producers (once; later calls do nothing). */
    @Override
    public void close() throws InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        for (Owner o : owners) {
            o.stop();
        }
    }

    /** One partition's producer and its committer. */
    private final class Owner {
        private final String topic;
        private final int partition;
        private final KafkaProducer<byte[], byte[]> producer;
        private final Thread committer;
        /** Guarded by this: whether a transaction is open to sends, the appends waiting for it to open,
         *  the appends sent into it, and whether the owner is stopping. */
        private boolean open;
        private int waitingToSend;
        private List<CompletableFuture<Void>> sent = new ArrayList<>();
        private boolean stopping;
        private RuntimeException failure;

        Owner(String bootstrap, String topic, int partition, String clientId) {
            this.topic = topic;
            this.partition = partition;
            Map<String, Object> p = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.CLIENT_ID_CONFIG, clientId + "-p" + partition,
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, clientId + "-p" + partition,
                    ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                    ProducerConfig.LINGER_MS_CONFIG, 0));
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
            committer = new Thread(this::commitInGroups, "floor-committer-" + partition);
        }

        void start() {
            committer.start();
        }

        /** Sends once a transaction is open (a send while one commits is illegal), then waits for nothing. */
        synchronized CompletableFuture<Void> append(byte[] key, byte[] value) throws InterruptedException {
            waitingToSend++;
            try {
                while (!open && !stopping && failure == null) {
                    wait();
                }
            } finally {
                waitingToSend--;
            }
            if (failure != null || stopping) {
                throw new IllegalStateException("partition " + partition + "'s owner is stopped", failure);
            }
            CompletableFuture<Void> done = new CompletableFuture<>();
            producer.send(new ProducerRecord<>(topic, partition, key, value), (m, e) -> {
                if (e != null) {
                    done.completeExceptionally(e);
                }
            });
            sent.add(done);
            notifyAll();
            return done;
        }

        private void commitInGroups() {
            List<CompletableFuture<Void>> group = List.of();
            try {
                producer.initTransactions();
                while (true) {
                    producer.beginTransaction();
                    group = nextGroup();
                    if (group.isEmpty()) {
                        producer.abortTransaction();
                        return;
                    }
                    long start = System.nanoTime();
                    producer.commitTransaction();
                    commitTimes.add(System.nanoTime() - start);
                    commits.increment();
                    committed.add(group.size());
                    group.forEach(f -> f.complete(null));
                    group = List.of();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                List<CompletableFuture<Void>> lost;
                synchronized (this) {
                    failure = e;
                    lost = sent;
                    notifyAll();
                }
                group.forEach(f -> f.completeExceptionally(e));
                lost.forEach(f -> f.completeExceptionally(e));
                throw e;
            }
        }

        /** Opens the transaction to sends; closes it once a record is in and no append waits to send (or when stopping). */
        private synchronized List<CompletableFuture<Void>> nextGroup() throws InterruptedException {
            open = true;
            notifyAll();
            while ((sent.isEmpty() || waitingToSend > 0) && !stopping) {
                wait();
            }
            open = false;
            List<CompletableFuture<Void>> group = sent;
            sent = new ArrayList<>();
            return group;
        }

        void stop() throws InterruptedException {
            synchronized (this) {
                stopping = true;
                notifyAll();
            }
            committer.join();
            producer.close();
        }
    }
}
