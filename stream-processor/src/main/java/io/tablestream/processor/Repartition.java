package io.tablestream.processor;

import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.PartitionMarker;
import io.tablestream.core.model.TableRecord;
import io.tablestream.processor.internal.StoreRows;
import io.tablestream.processor.store.IndexBuild;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogFormatException;
import io.tablestream.schemas.LogPartitioner;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Grows a stopped deployment from N to M &gt; N partitions, offline: every row of every task's
 * store is moved, through the stores' changelogs, to the task that owns it under M partitions, then
 * the commands topic grows to M, which is what records the deployment's partition count (every
 * instance reads it there at start). Rows are copied byte for byte: every entity keeps its ETag and
 * Timestamp, its history, index entries and expiry; tables, their settings and access policies
 * (registry and announcements), partition deletions and transactions move with their keys. Every
 * task's clock is set to the latest Timestamp any task gave, so Timestamps stay monotonic for every
 * entity wherever it lands. The changes, outcomes and dead-letter topics keep their partitions: the
 * change feed goes on where it was, its cursors stay valid.
 *
 * <p>Preconditions, checked first: no instance is running (the processor's group has no member),
 * every command on the log has been applied, and no secondary index is being built or dropped.
 * Each instance's local stores catch up from the changelogs at its next start (they hold a committed
 * prefix of their changelog and its offset; the moves come after it).
 *
 * <p>A run that stops half-way is resumed by running it again with the same M: the commands topic
 * grows last, the records it writes are marked (a header) and skipped when read again, and a move
 * written twice leaves the same rows.
 *
 * <p>One class, over 400 lines: an offline run in a strict order (preconditions, moves, clocks, the
 * commands topic last) over one set of admin, consumer and producer clients; its steps share those
 * clients and the order is what makes a run resumable, so they stay together, read top to bottom.
 */
public final class Repartition {
    /** Header of every record a repartition writes to a changelog. */
    static final String HEADER = "tablestream.repartition";
    /** Each admin or consumer call: an offline run may meet a cluster still electing leaders; nothing waits on it. */
    private static final Duration CALL = Duration.ofSeconds(60);
    /** Each poll while a changelog is read to its end (a poll returns as soon as records come). */
    private static final Duration POLL = Duration.ofMillis(200);
    /** How often the processor's group is looked at while its members leave (a session timeout is seconds). */
    private static final Duration GROUP_CHECK = Duration.ofMillis(500);

    /** What a run did: partitions before and after, rows moved per store, and how long it took. */
    public record Result(int from, int to, Map<String, Long> moved, Duration took) {
    }

    private final Map<String, Object> client;
    private final Topics topics;
    private final String applicationId;
    private final Consumer<String> progress;
    private final Admin admin;

    private Repartition(Map<String, Object> client, String topicPrefix, Consumer<String> progress) {
        this.client = Map.copyOf(client);
        this.topics = Topics.withPrefix(topicPrefix);
        this.applicationId = StreamProcessor.applicationId(topicPrefix);
        this.progress = progress;
        this.admin = Admin.create(only(client, AdminClientConfig.configNames()));
    }

    /**
     * Moves the deployment of topic prefix {@code topicPrefix} on the cluster {@code client} names
     * ({@code bootstrap.servers} and any security settings) to {@code to} partitions.
     *
     * @param removeMembers whether members left in the processor's group are removed (only when the
     *     caller knows no instance can run, as with the embedded broker it started on the data
     *     directory); otherwise the run waits up to {@code groupWait} for the group to empty
     * @throws IllegalStateException when a precondition does not hold (nothing was changed then)
     */
    public static Result run(Map<String, Object> client, String topicPrefix, int to, boolean removeMembers,
                             Duration groupWait, Consumer<String> progress) {
        Repartition r = new Repartition(client, topicPrefix, progress);
        try {
            return r.run(to, removeMembers, groupWait);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Repartition failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Repartition interrupted", e);
        } finally {
            r.admin.close(Duration.ofSeconds(5));
        }
    }

    private Result run(int to, boolean removeMembers, Duration groupWait)
            throws ExecutionException, InterruptedException, TimeoutException {
        long begin = System.nanoTime();
        int from = partitions(topics.commands().name());
        if (to <= from) {
            throw new IllegalStateException("The commands topic " + topics.commands().name() + " has " + from
                    + " partitions; a repartition only grows it (asked for " + to + ")");
        }
        List<String> stores = new ArrayList<>(StoreRows.KEYED);
        stores.addAll(StoreRows.PER_TASK);
        for (String store : stores) {
            int now = partitions(changelog(store));
            if (now != from && now != to) {
                throw new IllegalStateException("The changelog " + changelog(store) + " has " + now + " partitions: an"
                        + " earlier repartition to " + now + " did not finish; run it again with " + now);
            }
        }
        awaitStopped(removeMembers, groupWait);
        progress.accept("The stream processor's group " + applicationId + " has no member");
        Map<Long, String> accounts = tableAccounts();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer();
             KafkaProducer<byte[], byte[]> producer = producer()) {
            TaskMeta meta = readTaskMeta(consumer, from);
            checkApplied(consumer, from, meta.applied());
            Map<String, IndexBuild> builds = readyIndexBuilds(consumer, from);
            checkNoJobRunning(consumer, from);
            progress.accept("Every command of the " + from + " partitions is applied; moving the stores' rows to " + to
                    + " partitions");
            for (String store : stores) {
                String topic = changelog(store);
                if (partitions(topic) < to) {
                    admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(to))).all()
                            .get(CALL.toSeconds(), TimeUnit.SECONDS);
                }
            }
            Sender sender = new Sender(producer);
            Map<String, Long> moved = new LinkedHashMap<>();
            Map<String, byte[]> announced = new TreeMap<>();
            Map<String, long[]> indexEntries = new HashMap<>();
            for (String store : StoreRows.KEYED) {
                long n = 0;
                for (int p = 0; p < from; p++) {
                    n += move(consumer, sender, store, p, to, accounts, announced, indexEntries);
                }
                moved.put(store, n);
                progress.accept("  " + store + ": " + n + " rows moved");
            }
            // the per-task rows of the tasks that are new, and of every task's clock and index builds
            for (int q = from; q < to; q++) {
                for (Map.Entry<String, byte[]> a : announced.entrySet()) {
                    sender.send(changelog(StoreNames.PARTITION_TABLES), q, bytes(a.getKey()), a.getValue(), -1);
                }
            }
            for (int q = 0; q < to; q++) {
                if (meta.clock() != Long.MIN_VALUE) {
                    sender.send(changelog(StoreNames.TASK_META), q, bytes(StoreRows.clockKey()),
                            StoreRows.encodeClock(meta.clock()), -1);
                }
                for (IndexBuild b : builds.values()) {
                    String key = IndexBuild.key(b.tableId(), b.indexId());
                    long[] entries = indexEntries.getOrDefault(key, new long[to]);
                    // the rows a new partition's copy has walked: the repartition walked its entries
                    sender.send(changelog(StoreNames.INDEX_BUILDS), q, bytes(key), new IndexBuild(b.tableId(),
                            b.indexId(), IndexBuild.State.READY, null, entries[q], entries[q]).encode(), -1);
                }
            }
            sender.flush();
            admin.createPartitions(Map.of(topics.commands().name(), NewPartitions.increaseTo(to))).all()
                    .get(CALL.toSeconds(), TimeUnit.SECONDS);
            progress.accept("The commands topic " + topics.commands().name() + " now has " + to + " partitions");
            return new Result(from, to, moved, Duration.ofNanos(System.nanoTime() - begin));
        }
    }

    /**
     * Moves the rows of {@code store} in partition {@code p} that belong elsewhere under {@code to}
     * partitions: each record is written, in order, to its new partition, and a tombstone to the old
     * one. Returns the rows moved (values, not tombstones).
     */
    private long move(KafkaConsumer<byte[], byte[]> consumer, Sender sender, String store, int p, int to,
                      Map<Long, String> accounts, Map<String, byte[]> announced, Map<String, long[]> indexEntries) {
        String topic = changelog(store);
        boolean index = store.equals(StoreNames.INDEXES);
        Set<ByteBuffer> live = index ? new HashSet<>() : null;
        long[] moved = {0};
        readAll(consumer, new TopicPartition(topic, p), 0, r -> {
            if (r.headers().lastHeader(HEADER) != null) {
                return;
            }
            CommandKey owner = StoreRows.owner(store, r.key(), id -> account(accounts, id));
            if (owner == null) {
                if (!store.equals(StoreNames.PARTITION_TABLES)) {
                    return; // a share of a job: none is live (checked first)
                }
                if (r.value() == null) {
                    announced.remove(text(r.key()));
                } else {
                    announced.put(text(r.key()), r.value());
                }
                return;
            }
            if (live != null) {
                if (r.value() == null) {
                    live.remove(ByteBuffer.wrap(r.key()));
                } else {
                    live.add(ByteBuffer.wrap(r.key()));
                }
            }
            int q = LogPartitioner.partitionOf(owner, to);
            if (q != p) {
                sender.send(topic, q, r.key(), r.value(), r.timestamp());
                if (r.value() != null) {
                    sender.send(topic, p, r.key(), null, r.timestamp());
                    moved[0]++;
                }
            }
        });
        if (live != null) {
            for (ByteBuffer key : live) {
                byte[] k = key.array();
                int q = LogPartitioner.partitionOf(StoreRows.owner(store, k, id -> account(accounts, id)), to);
                indexEntries.computeIfAbsent(StoreRows.indexBuildKeyOf(k), x -> new long[to])[q]++;
            }
        }
        return moved[0];
    }

    private record TaskMeta(long[] applied, long clock) {
    }

    /** Each task's applied offset, and the latest Timestamp any task gave. */
    private TaskMeta readTaskMeta(KafkaConsumer<byte[], byte[]> consumer, int from) {
        long[] applied = new long[from];
        long[] clock = {Long.MIN_VALUE};
        String appliedKey = StoreRows.appliedOffsetKey();
        String clockKey = StoreRows.clockKey();
        for (int p = 0; p < from; p++) {
            int partition = p;
            applied[p] = -1;
            readAll(consumer, new TopicPartition(changelog(StoreNames.TASK_META), p), 0, r -> {
                String key = text(r.key());
                if (r.value() == null) {
                    return;
                }
                if (key.equals(appliedKey)) {
                    applied[partition] = StoreRows.decodeClock(r.value());
                } else if (key.equals(clockKey)) {
                    clock[0] = Math.max(clock[0], StoreRows.decodeClock(r.value()));
                }
            });
        }
        return new TaskMeta(applied, clock[0]);
    }

    /** Refuses when a partition of the commands topic holds a command after its task's applied offset. */
    private void checkApplied(KafkaConsumer<byte[], byte[]> consumer, int from, long[] applied) {
        List<String> behind = new ArrayList<>();
        for (int p = 0; p < from; p++) {
            long[] unapplied = {0};
            readAll(consumer, new TopicPartition(topics.commands().name(), p), applied[p] + 1, r -> {
                if (!isMarker(r.value())) {
                    unapplied[0]++;
                }
            });
            if (unapplied[0] > 0) {
                behind.add("partition " + p + ": " + unapplied[0]);
            }
        }
        if (!behind.isEmpty()) {
            throw new IllegalStateException("Commands not applied yet (" + String.join(", ", behind) + "): start the"
                    + " server until it is ready and has applied them, stop it, and run the repartition again");
        }
    }

    /** Refuses when a task holds a share of a job (restore, delete by filter) still running. */
    private void checkNoJobRunning(KafkaConsumer<byte[], byte[]> consumer, int from) {
        Set<String> running = new java.util.TreeSet<>();
        for (int p = 0; p < from; p++) {
            Set<String> shares = new HashSet<>();
            readAll(consumer, new TopicPartition(changelog(StoreNames.JOBS), p), 0, r -> {
                String key = text(r.key());
                if (io.tablestream.processor.store.JobKeys.accountOfStatus(key) != null) {
                    return;
                }
                if (r.value() == null) {
                    shares.remove(key);
                } else {
                    shares.add(key);
                }
            });
            running.addAll(shares);
        }
        if (!running.isEmpty()) {
            throw new IllegalStateException("Jobs are running (" + String.join(", ", running) + "): start the server"
                    + " until they have finished (GET /<account>/$jobs/<id>), stop it, and run again");
        }
    }

    /** The index builds, by key; refuses when one is not READY in some partition. */
    private Map<String, IndexBuild> readyIndexBuilds(KafkaConsumer<byte[], byte[]> consumer, int from) {
        Map<String, IndexBuild> builds = new TreeMap<>();
        List<String> pending = new ArrayList<>();
        for (int p = 0; p < from; p++) {
            Map<String, IndexBuild> partition = new HashMap<>();
            readAll(consumer, new TopicPartition(changelog(StoreNames.INDEX_BUILDS), p), 0, r -> {
                String key = text(r.key());
                if (r.value() == null) {
                    partition.remove(key);
                } else {
                    partition.put(key, IndexBuild.decode(key, r.value()));
                }
            });
            for (IndexBuild b : partition.values()) {
                if (b.state() != IndexBuild.State.READY) {
                    pending.add(b + " in partition " + p);
                }
            }
            builds.putAll(partition);
        }
        if (!pending.isEmpty()) {
            throw new IllegalStateException("Secondary indexes are being built or dropped (" + String.join(", ", pending)
                    + "): start the server until they are Ready (GET /<table>?comp=indexes), stop it, and run again");
        }
        return builds;
    }

    /** Every table id ever registered and its account, from the registry (the tables topic). */
    private Map<Long, String> tableAccounts() throws ExecutionException, InterruptedException, TimeoutException {
        Map<Long, String> accounts = new HashMap<>();
        String idPrefix = "id/";
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            int n = partitions(topics.tables().name());
            for (int p = 0; p < n; p++) {
                readAll(consumer, new TopicPartition(topics.tables().name(), p), 0, r -> {
                    String key = text(r.key());
                    if (r.value() != null && key.startsWith(idPrefix)) {
                        TableRecord t = LogCodecs.TABLE_RECORD.decode(r.value());
                        accounts.put(t.tableId(), t.account());
                    }
                });
            }
        }
        return accounts;
    }

    private static String account(Map<Long, String> accounts, long tableId) {
        String account = accounts.get(tableId);
        if (account == null) {
            throw new IllegalStateException("A store row of table id " + tableId + ", which the registry does not know");
        }
        return account;
    }

    /** Waits for the processor's group to have no member (removing those left, when allowed). */
    private void awaitStopped(boolean removeMembers, Duration wait)
            throws ExecutionException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + wait.toNanos();
        boolean removed = false;
        while (true) {
            ConsumerGroupDescription group;
            try {
                group = admin.describeConsumerGroups(List.of(applicationId)).all()
                        .get(CALL.toSeconds(), TimeUnit.SECONDS).get(applicationId);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof GroupIdNotFoundException) {
                    return;
                }
                throw e;
            }
            if (group == null || group.members().isEmpty() || group.groupState() == GroupState.EMPTY
                    || group.groupState() == GroupState.DEAD) {
                return;
            }
            if (removeMembers && !removed) {
                progress.accept("Removing " + group.members().size() + " member(s) left in the group " + applicationId
                        + " by the stopped server");
                admin.removeMembersFromConsumerGroup(applicationId, new RemoveMembersFromConsumerGroupOptions()).all()
                        .get(CALL.toSeconds(), TimeUnit.SECONDS);
                removed = true;
                continue;
            }
            if (System.nanoTime() > deadline) {
                List<String> members = group.members().stream().map(m -> m.consumerId() + "@" + m.host()).toList();
                throw new IllegalStateException("The stream processor's group " + applicationId + " still has members "
                        + members + " after " + wait.toSeconds() + " s: stop every instance first");
            }
            Thread.sleep(GROUP_CHECK.toMillis());
        }
    }

    /** Reads partition {@code tp} from {@code fromOffset} to its end (committed records only). */
    private static void readAll(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp, long fromOffset,
                                Consumer<ConsumerRecord<byte[], byte[]>> each) {
        consumer.assign(List.of(tp));
        long end = consumer.endOffsets(List.of(tp), CALL).get(tp);
        long start = Math.max(fromOffset, consumer.beginningOffsets(List.of(tp), CALL).get(tp));
        if (start >= end) {
            return;
        }
        consumer.seek(tp, start);
        while (consumer.position(tp, CALL) < end) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                if (r.offset() < end) {
                    each.accept(r);
                }
            }
        }
    }

    private static boolean isMarker(byte[] value) {
        if (value == null) {
            return false;
        }
        try {
            Command c = LogCodecs.COMMAND.decode(value);
            return c instanceof PartitionMarker;
        } catch (LogFormatException e) {
            return false;
        }
    }

    private int partitions(String topic) throws ExecutionException, InterruptedException, TimeoutException {
        TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(CALL.toSeconds(), TimeUnit.SECONDS)
                .get(topic);
        return d.partitions().size();
    }

    private String changelog(String store) {
        return applicationId + "-" + store + "-changelog";
    }

    /** The client settings a kind of client takes ({@code names}). */
    private static Map<String, Object> only(Map<String, Object> client, Set<String> names) {
        Map<String, Object> settings = new HashMap<>();
        client.forEach((k, v) -> {
            if (names.contains(k)) {
                settings.put(k, v);
            }
        });
        return settings;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Map<String, Object> settings = only(client, ConsumerConfig.configNames());
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        settings.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Topics.MAX_COMMAND_BYTES);
        settings.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 4 * Topics.MAX_COMMAND_BYTES);
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        settings.put(CommonClientConfigs.CLIENT_ID_CONFIG, topics.prefix() + "-repartition-reader");
        settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private KafkaProducer<byte[], byte[]> producer() {
        Map<String, Object> settings = only(client, ProducerConfig.configNames());
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        settings.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        settings.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Topics.MAX_COMMAND_BYTES + 1024 * 1024);
        settings.put(CommonClientConfigs.CLIENT_ID_CONFIG, topics.prefix() + "-repartition-writer");
        return new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Sends marked records, remembering the first failure; {@link #flush} waits for all and throws it. */
    private static final class Sender {
        private final KafkaProducer<byte[], byte[]> producer;
        private final AtomicReference<Exception> failure = new AtomicReference<>();

        Sender(KafkaProducer<byte[], byte[]> producer) {
            this.producer = producer;
        }

        void send(String topic, int partition, byte[] key, byte[] value, long timestamp) {
            if (failure.get() != null) {
                throw new IllegalStateException("Writing a changelog failed: " + failure.get(), failure.get());
            }
            RecordHeaders headers = new RecordHeaders();
            headers.add(HEADER, new byte[] {1});
            producer.send(new ProducerRecord<>(topic, partition, timestamp < 0 ? null : timestamp, key, value, headers),
                    (metadata, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        }
                    });
        }

        void flush() {
            producer.flush();
            if (failure.get() != null) {
                throw new IllegalStateException("Writing a changelog failed: " + failure.get(), failure.get());
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
