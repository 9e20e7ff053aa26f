package io.tablestream.processor.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;

class CommittedKeyValueStoreTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-rows-changelog", 3);

    @TempDir
    Path stateDir;

    private final List<CommittedKeyValueStore> opened = new ArrayList<>();

    private CommittedKeyValueStore open() {
        return open(null);
    }

    private CommittedKeyValueStore open(KeyPresence presence) {
        return open(presence, null);
    }

    private CommittedKeyValueStore open(KeyPresence presence, Class<? extends RocksDBConfigSetter> rocksDb) {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        if (rocksDb != null) {
            config.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, rocksDb);
        }
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(config, new TaskId(0, 3),
                stateDir.toFile());
        CommittedKeyValueStore store = new CommittedKeyValueStore("rows", presence);
        store.init(context.getStateStoreContext(), store);
        opened.add(store);
        return store;
    }

    @AfterEach
    void closeAll() {
        opened.forEach(CommittedKeyValueStore::close);
        TransactionBoundStores.aborted();
    }

    private static Bytes key(String k) {
        return Bytes.wrap(k.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] value(String v) {
        return v.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> keys(KeyValueIterator<Bytes, byte[]> it) {
        List<String> keys = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                keys.add(new String(kv.key.get(), StandardCharsets.UTF_8) + "=" + new String(kv.value, StandardCharsets.UTF_8));
            }
        }
        return keys;
    }

    @Test
    void writesOfTheOpenTransactionAreReadableButNotOnDiskUntilItCommits() {
        CommittedKeyValueStore store = open();
        store.put(key("a"), value("1"));
        assertThat(store.get(key("a"))).isEqualTo(value("1"));
        assertThat(store.onDisk()).isEmpty();
        assertThat(store.committedOffset(CHANGELOG)).isNull();

        TransactionBoundStores.committed(Map.of(CHANGELOG, 41L));

        assertThat(store.pendingWrites()).isZero();
        assertThat(store.onDisk()).containsKey(key("a"));
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(41L);
    }

    @Test
    void aWatchedPrefixMarksThePartitionAsSoonAsSuchAKeyIsWrittenAndWhenTheStoreOpensHoldingOne() {
        KeyPresence presence = new KeyPresence(value("pdel/"));
        CommittedKeyValueStore store = open(presence);
        store.put(key("id/1"), value("table"));
        store.put(key("pdel/1/pk/4"), null);
        assertThat(presence.mayHold(3)).isFalse();

        store.put(key("pdel/1/pk/5"), value("deleted"));
        assertThat(presence.mayHold(3)).isTrue();
        assertThat(presence.mayHold(2)).isFalse();
        TransactionBoundStores.committed(Map.of(CHANGELOG, 2L));
        store.close();

        KeyPresence afterRestart = new KeyPresence(value("pdel/"));
        open(afterRestart);
        assertThat(afterRestart.mayHold(3)).isTrue();
    }

    @Test
    void aRestoredOrStandbyRecordUnderAWatchedPrefixMarksThePartitionBeforeItIsWritten() {
        KeyPresence presence = new KeyPresence(value("pdel/"));
        CommittedKeyValueStore store = open(presence);
        store.restoreAll(List.of(KeyValue.pair(value("id/1"), value("table")), KeyValue.pair(value("pdel/2/p/1"), null)));
        assertThat(presence.mayHold(3)).isFalse();

        store.restoreAll(List.of(KeyValue.pair(value("pdel/2/p/9"), value("deleted"))));
        assertThat(presence.mayHold(3)).isTrue();
    }

    @Test
    void aStoreOpeningWithKeysOnlyAroundTheWatchedPrefixLeavesThePartitionUnmarked() {
        CommittedKeyValueStore store = open();
        for (String k : List.of("a", "pdel", "pdel0", "z")) {
            store.put(key(k), value("x"));
        }
        TransactionBoundStores.committed(Map.of(CHANGELOG, 4L));
        store.close();

        KeyPresence presence = new KeyPresence(value("pdel/"));
        open(presence);
        assertThat(presence.mayHold(3)).isFalse();
    }

    @Test
    void anAbortedTransactionLeavesNothing() {
        CommittedKeyValueStore store = open();
        store.put(key("a"), value("1"));
        TransactionBoundStores.committed(Map.of(CHANGELOG, 1L));
        store.put(key("a"), value("2"));
        store.delete(key("a"));
        store.put(key("b"), value("3"));

        TransactionBoundStores.aborted();

        assertThat(store.get(key("a"))).isEqualTo(value("1"));
        assertThat(store.get(key("b"))).isNull();
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(1L);
    }

    @Test
    void aStoreClosedWithoutCommittingReopensAtItsLastCommit() {
        CommittedKeyValueStore store = open();
        store.put(key("kept"), value("1"));
        TransactionBoundStores.committed(Map.of(CHANGELOG, 7L));
        store.put(key("lost"), value("2"));
        store.close(); // what a kill leaves on disk: the open transaction is gone
        TransactionBoundStores.aborted();

        CommittedKeyValueStore again = open();
        assertThat(again.get(key("kept"))).isEqualTo(value("1"));
        assertThat(again.get(key("lost"))).isNull();
        assertThat(again.committedOffset(CHANGELOG)).isEqualTo(7L);
    }

    @Test
    void rangesMergeTheOpenTransactionOverTheFilesInBothDirections() {
        CommittedKeyValueStore store = open();
        for (String k : List.of("a", "b", "c", "d", "e")) {
            store.put(key(k), value("disk"));
        }
        TransactionBoundStores.committed(Map.of(CHANGELOG, 5L));
        store.put(key("b"), value("new"));
        store.delete(key("c"));
        store.put(key("bb"), value("added"));
        store.put(key("f"), value("added"));

        assertThat(keys(store.all())).containsExactly("a=disk", "b=new", "bb=added", "d=disk", "e=disk", "f=added");
        assertThat(keys(store.range(key("b"), key("d")))).containsExactly("b=new", "bb=added", "d=disk");
        assertThat(keys(store.reverseRange(key("b"), key("d")))).containsExactly("d=disk", "bb=added", "b=new");
        assertThat(keys(store.reverseAll())).containsExactly("f=added", "e=disk", "d=disk", "bb=added", "b=new", "a=disk");
        assertThat(keys(store.range(key("d"), key("b")))).isEmpty();
        assertThat(keys(store.prefixScan("b", Serdes.String().serializer()))).containsExactly("b=new", "bb=added");
    }

    /** Tiny memtables and no block cache: committed rows soon live in files whose blocks are never cached. */
    public static final class UncachedFiles implements RocksDBConfigSetter {
        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
            options.setWriteBufferSize(64 * 1024);
            options.setTableFormatConfig(new BlockBasedTableConfig().setNoBlockCache(true));
        }

        @Override
        public void close(String storeName, Options options) {
        }
    }

    @Test
    void getsFindCommittedRowsInTheMemtablesAndInUncachedFilesAndNothingForAbsentOrDeletedKeys() throws Exception {
        for (Class<? extends RocksDBConfigSetter> rocksDb : java.util.Arrays.asList(null, UncachedFiles.class)) {
            CommittedKeyValueStore store = open(null, rocksDb);
            String filler = "v".repeat(200);
            for (int i = 0; i < 2_000; i++) {
                store.put(key("k" + i), value(filler + i));
                if (i % 100 == 99) {
                    TransactionBoundStores.committed(Map.of(CHANGELOG, (long) i));
                }
            }
            store.delete(key("k7"));
            TransactionBoundStores.committed(Map.of(CHANGELOG, 2_000L));

            for (int i = 0; i < 2_000; i++) {
                assertThat(store.get(key("k" + i))).as("k%d", i).isEqualTo(i == 7 ? null : value(filler + i));
                assertThat(store.get(key("absent" + i))).isNull();
            }
            store.close();
            opened.remove(store);
            TransactionBoundStores.aborted();
            org.apache.kafka.common.utils.Utils.delete(stateDir.resolve("committed-rocksdb").toFile());
        }
    }

    @Test
    void anEmptyCommitForgetsTheOffsetSoTheStoreIsRebuilt() {
        CommittedKeyValueStore store = open();
        store.put(key("a"), value("1"));
        TransactionBoundStores.committed(Map.of(CHANGELOG, 3L));

        store.commit(Map.of());

        assertThat(store.committedOffset(CHANGELOG)).isNull();
    }

    @Test
    void kafkaStreamsOwnCommitWritesTheGivenOffset() {
        CommittedKeyValueStore store = open();
        store.put(key("a"), value("1"));
        store.commit(Map.of(CHANGELOG, 12L));
        assertThat(store.onDisk()).containsKey(key("a"));
        assertThat(store.committedOffset(CHANGELOG)).isEqualTo(12L);
    }

    @Test
    void readersScanWhileTheStreamThreadWritesAndCommits() throws Exception {
        CommittedKeyValueStore store = open();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread streamThread = new Thread(() -> {
            try {
                for (int i = 0; i < 20_000; i++) {
                    store.put(key(String.format("k%05d", i % 500)), value("v" + i));
                    if (i % 7 == 0) {
                        store.delete(key(String.format("k%05d", (i * 31) % 500)));
                    }
                    if (i % 50 == 0) {
                        TransactionBoundStores.committed(Map.of(CHANGELOG, (long) i));
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                done.set(true);
            }
        });
        streamThread.start();
        int scans = 0;
        while (!done.get()) {
            List<String> seen = keys(store.range(key("k00100"), key("k00300")));
            List<String> sorted = new ArrayList<>(seen);
            java.util.Collections.sort(sorted);
            assertThat(seen).isEqualTo(sorted);
            scans++;
        }
        streamThread.join();
        assertThat(failure.get()).isNull();
        assertThat(scans).isPositive();
    }

    @Test
    void aCloseWaitsForTheGetsUnderWayAndEveryGetAfterItIsRefused() throws Exception {
        CommittedKeyValueStore store = open();
        for (int i = 0; i < 1_000; i++) {
            store.put(key(String.format("k%04d", i)), value("v" + i));
        }
        TransactionBoundStores.committed(Map.of(CHANGELOG, 1L));
        int readers = 4;
        java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(readers);
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < readers; r++) {
            int first = r;
            Thread t = new Thread(() -> {
                try {
                    for (int i = first; ; i = (i + 7) % 1_000) {
                        byte[] got = store.get(key(String.format("k%04d", i)));
                        assertThat(got).isEqualTo(value("v" + i));
                        if (i == first + 700) {
                            reading.countDown(); // gets under way before the close starts
                        }
                    }
                } catch (org.apache.kafka.streams.errors.InvalidStateStoreException closed) {
                    refused.incrementAndGet();
                } catch (Throwable t2) {
                    failure.compareAndSet(null, t2);
                }
            });
            threads.add(t);
            t.start();
        }
        assertThat(reading.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        store.close();
        for (Thread t : threads) {
            t.join(30_000);
        }
        assertThat(failure.get()).isNull();
        assertThat(refused.get()).isEqualTo(readers);
    }

    @Test
    void aCloseFreesTheDatabaseOnlyOnceTheGetUnderWayEnds() throws Exception {
        CommittedKeyValueStore store = open();
        store.put(key("a"), value("1"));
        TransactionBoundStores.committed(Map.of(CHANGELOG, 1L));
        long inFlight = store.getStarts(); // a get between its check of the store and RocksDB's read
        Thread closer = new Thread(store::close);
        closer.start();
        closer.join(300);
        assertThat(closer.isAlive()).as("the close waits for the get").isTrue();
        assertThat(store.isOpen()).isTrue(); // nothing freed yet

        store.getEnds(inFlight);
        closer.join(10_000);
        assertThat(closer.isAlive()).isFalse();
        assertThat(store.isOpen()).isFalse();
    }
}
