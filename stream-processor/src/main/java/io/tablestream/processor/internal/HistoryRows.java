package io.tablestream.processor.internal;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.History;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.schemas.LogCodecs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's entity history: every change to an entity of a table that keeps history, under
 * {@link KeyCodec#versionKey} (newest first per entity), as its {@link ChangeEvent} — the new
 * version (none for a delete or an expiry), Timestamp and ETag, operation, principal and command.
 * No decision reads it, so when its sweep runs changes nothing a replay decides.
 */
final class HistoryRows {
    private final KeyValueStore<Bytes, byte[]> history;
    /** Where the next sweep round starts (in memory: after a restart the sweep starts over). */
    private byte[] sweepFrom;
    /** The entity whose versions the sweep is among, and whether it kept one older than the retention. */
    private byte[] sweepEntity;
    private boolean keptInForce;

    HistoryRows(KeyValueStore<Bytes, byte[]> history) {
        this.history = history;
    }

    /** Records the version {@code event} made (its table keeps history). */
    void record(ChangeEvent event) {
        EntityChange c = event.change();
        EntityKey key = EntityKey.of(c.tableId(), c.partitionKey(), c.rowKey());
        history.put(Bytes.wrap(KeyCodec.versionKey(key, event.changedAt())), LogCodecs.CHANGE_EVENT.encode(event));
    }

    /**
     * Removes versions past their table's retention at {@code now} — except, per entity, the newest
     * of them unless it is a delete or an expiry: the version still in force at the retention
     * horizon, which a point-in-time read at any time within the retention may need — and every version of a table
     * deleted or no longer keeping history, examining at most {@code budget} versions, from where
     * the last round stopped (round and round the store). Versions of a table this task does not
     * know (yet) are kept, and so are those of a table {@code pinned} names (a restore reads them).
     *
     * @return how many versions it removed
     */
    int sweep(EdmDateTime now, LongFunction<Optional<TableRecord>> tables, LongPredicate pinned, int budget) {
        List<Bytes> doomed = new ArrayList<>();
        Map<Long, Optional<TableRecord>> seen = new HashMap<>();
        int examined = 0;
        byte[] next = null;
        try (KeyValueIterator<Bytes, byte[]> it = sweepFrom == null ? history.all()
                : history.range(Bytes.wrap(sweepFrom), null)) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] key = kv.key.get();
                if (examined >= budget) {
                    next = key;
                    break;
                }
                examined++;
                long tableId = KeyCodec.tableId(key);
                Optional<TableRecord> table = seen.computeIfAbsent(tableId, tables::apply);
                if (table.isEmpty() || pinned.test(tableId)) {
                    continue;
                }
                TableRecord t = table.get();
                byte[] entity = Arrays.copyOf(key, key.length - Long.BYTES);
                if (sweepEntity == null || !Arrays.equals(entity, sweepEntity)) {
                    sweepEntity = entity;
                    keptInForce = false;
                }
                if (!t.isActive() || !t.keepsHistory()) {
                    doomed.add(kv.key);
                } else if (!History.kept(KeyCodec.versionTime(key), now, t.historyRetentionSeconds())) {
                    // versions come newest first: the first one past the retention was in force at its horizon
                    if (keptInForce || LogCodecs.CHANGE_EVENT.decode(kv.value).change().newVersion() == null) {
                        doomed.add(kv.key);
                    }
                    keptInForce = true;
                }
            }
        }
        sweepFrom = next;
        if (next == null) {
            sweepEntity = null;
        }
        doomed.forEach(history::delete);
        return doomed.size();
    }
}
