package io.tablestream.processor.internal;

import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.IndexKeys;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.IndexBuild;
import io.tablestream.schemas.StoredEntityCodec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongFunction;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's copies of its tables' secondary indexes: the {@code indexes} store (entries, see
 * {@link IndexKeys}) kept in step with the entity rows in the same task and transaction, and the
 * {@code index-builds} store (how far each index is built over the rows that existed before it).
 *
 * <p>An index exists in a partition from the announcement of its creation in the partition's own
 * log: from there on every entity change of the table updates its entries (the old value's entry
 * removed, the new one's written), and a background build (a punctuator, a bounded number of rows
 * per round) walks the rows in key order and writes their entries. Both run on the stream thread,
 * and both write the entry of a row's current version, so in whichever order they meet a row the
 * result is the same: one entry per stored row that has the property (an indexable value), none
 * for a deleted one. Once the walk reaches the end of the table the index is READY there and
 * readers use it. A dropped index (or one of a deleted table) is DROPPING until its entries are
 * swept, a bounded number per round.
 */
final class PartitionIndexes {
    private static final byte[] EMPTY = new byte[0];

    private final KeyValueStore<Bytes, byte[]> entries;
    private final KeyValueStore<String, byte[]> builds;
    private final KeyValueStore<Bytes, byte[]> entities;
    /** The indexes of a table as this partition knows it (none once it is deleted or unknown). */
    private final LongFunction<List<IndexDefinition>> indexesOf;
    /** Builds still BUILDING or DROPPING here, or null when not read from the store yet. */
    private Set<String> pending;

    PartitionIndexes(KeyValueStore<Bytes, byte[]> entries, KeyValueStore<String, byte[]> builds,
                     KeyValueStore<Bytes, byte[]> entities, LongFunction<List<IndexDefinition>> indexesOf) {
        this.indexesOf = indexesOf;
        this.entries = entries;
        this.builds = builds;
        this.entities = entities;
    }

    /**
     * Keeps the entries of {@code indexes} in step with a row going from {@code previous} to
     * {@code next}, and their counts. While an index is still being built, a row the build has not
     * reached has no entry yet: whether an entry is there is read, not assumed.
     */
    void changed(List<IndexDefinition> indexes, EntityKey key, StoredEntity previous, StoredEntity next) {
        for (IndexDefinition index : indexes) {
            EdmValue before = valueOf(previous, index);
            EdmValue after = valueOf(next, index);
            if (Objects.equals(before, after)) {
                continue;
            }
            long delta = 0;
            if (before != null) {
                Bytes old = Bytes.wrap(IndexKeys.entry(index.indexId(), before, key));
                if (entries.get(old) != null) {
                    entries.delete(old);
                    delta--;
                }
            }
            if (after != null) {
                Bytes entry = Bytes.wrap(IndexKeys.entry(index.indexId(), after, key));
                if (entries.get(entry) == null) {
                    entries.put(entry, EMPTY);
                    delta++;
                }
            }
            if (delta != 0) {
                String buildKey = IndexBuild.key(key.tableId(), index.indexId());
                byte[] build = builds.get(buildKey);
                if (build != null) {
                    builds.put(buildKey, IndexBuild.decode(buildKey, build).counting(delta).encode());
                }
            }
        }
    }

    /**
     * A table announcement reached the partition: indexes it lists that {@code before} did not
     * start building here; indexes {@code before} had that it no longer lists (or all of them, when
     * the table is deleted) are dropped.
     */
    void learn(TableRecord before, TableRecord after) {
        List<IndexDefinition> had = before == null ? List.of() : before.indexes();
        List<IndexDefinition> has = after.isActive() ? after.indexes() : List.of();
        Set<Long> hasIds = new HashSet<>();
        has.forEach(i -> hasIds.add(i.indexId()));
        Set<Long> hadIds = new HashSet<>();
        had.forEach(i -> hadIds.add(i.indexId()));
        for (IndexDefinition i : has) {
            if (!hadIds.contains(i.indexId()) && builds.get(IndexBuild.key(after.tableId(), i.indexId())) == null) {
                put(new IndexBuild(after.tableId(), i.indexId(), IndexBuild.State.BUILDING,
                        KeyCodec.table(after.tableId()).fromInclusive(), 0, 0));
            }
        }
        for (IndexDefinition i : had) {
            if (!hasIds.contains(i.indexId())) {
                put(new IndexBuild(after.tableId(), i.indexId(), IndexBuild.State.DROPPING, null, 0, 0));
            }
        }
    }

    /**
     * Builds and sweeps, at most {@code budget} rows or entries in all; returns how many it did.
     * Called by a punctuator: what it writes changes no decision (decisions never read indexes).
     */
    int work(int budget) {
        int done = 0;
        for (String key : List.copyOf(pendingBuilds())) {
            if (done >= budget) {
                break;
            }
            byte[] value = builds.get(key);
            if (value == null) {
                pending.remove(key);
                continue;
            }
            IndexBuild build = IndexBuild.decode(key, value);
            done += switch (build.state()) {
                case BUILDING -> build(build, budget - done);
                case DROPPING -> sweep(build, budget - done);
                case READY -> 0;
            };
        }
        return done;
    }

    private int build(IndexBuild build, int budget) {
        ByteRange table = KeyCodec.table(build.tableId());
        int n = 0;
        byte[] resume = null;
        List<KeyValue<Bytes, byte[]>> rows = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = entities.range(Bytes.wrap(build.cursor()),
                Bytes.wrap(table.toExclusive()))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (!table.contains(kv.key.get())) {
                    break;
                }
                if (n == budget) {
                    resume = kv.key.get();
                    break;
                }
                rows.add(kv);
                n++;
            }
        }
        List<IndexDefinition> index = indexesOf.apply(build.tableId()).stream()
                .filter(i -> i.indexId() == build.indexId()).toList();
        for (KeyValue<Bytes, byte[]> kv : rows) {
            EntityKey key = KeyCodec.decode(kv.key.get());
            changed(index, key, null, StoredEntityCodec.decode(key.partitionKey(), key.rowKey(), kv.value));
        }
        // the entries just written were counted into the stored build: read it again
        String key = IndexBuild.key(build.tableId(), build.indexId());
        IndexBuild now = IndexBuild.decode(key, builds.get(key));
        if (resume == null) {
            put(new IndexBuild(build.tableId(), build.indexId(), IndexBuild.State.READY, null, build.rowsIndexed() + n,
                    now.entries()));
            pending.remove(key);
        } else {
            put(new IndexBuild(build.tableId(), build.indexId(), IndexBuild.State.BUILDING, resume,
                    build.rowsIndexed() + n, now.entries()));
        }
        return Math.max(n, 1);
    }

    private int sweep(IndexBuild build, int budget) {
        ByteRange range = IndexKeys.index(build.tableId(), build.indexId());
        List<Bytes> doomed = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = entries.range(Bytes.wrap(range.fromInclusive()),
                Bytes.wrap(range.toExclusive()))) {
            while (it.hasNext() && doomed.size() < budget) {
                Bytes k = it.next().key;
                if (range.contains(k.get())) {
                    doomed.add(k);
                }
            }
        }
        doomed.forEach(entries::delete);
        if (doomed.size() < budget) {
            String key = IndexBuild.key(build.tableId(), build.indexId());
            builds.delete(key);
            pending.remove(key);
        }
        return Math.max(doomed.size(), 1);
    }

    /** Whether a build or a sweep is still to do here ({@link #work} has something to do). */
    boolean hasPendingBuilds() {
        return !pendingBuilds().isEmpty();
    }

    private void put(IndexBuild build) {
        String key = IndexBuild.key(build.tableId(), build.indexId());
        builds.put(key, build.encode());
        if (build.state() != IndexBuild.State.READY) {
            pendingBuilds().add(key);
        }
    }

    private Set<String> pendingBuilds() {
        if (pending == null) {
            pending = new TreeSet<>();
            try (KeyValueIterator<String, byte[]> it = builds.all()) {
                while (it.hasNext()) {
                    KeyValue<String, byte[]> kv = it.next();
                    if (IndexBuild.decode(kv.key, kv.value).state() != IndexBuild.State.READY) {
                        pending.add(kv.key);
                    }
                }
            }
        }
        return pending;
    }

    private static EdmValue valueOf(StoredEntity s, IndexDefinition index) {
        if (s == null) {
            return null;
        }
        EdmValue v = s.entity().property(index.property());
        return v != null && IndexKeys.indexes(v.type()) ? v : null;
    }
}
