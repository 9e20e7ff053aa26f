package io.tablestream.processor.internal;

import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.rules.History;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.LookaheadIterator;
import io.tablestream.schemas.LogCodecs;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The entities of a range as they were at a time, from the history store: groups the versions
 * of each entity (consecutive keys, newest first ascending, oldest first descending), takes the
 * newest written at or before the time, decodes only that one, and skips entities absent then.
 * Point-in-time reads and a restore's copy of a table read through it.
 */
final class AsOfRows extends LookaheadIterator<StoredEntity> {
    private final KeyValueIterator<Bytes, byte[]> it;
    private final ByteRange range;
    private final EdmDateTime asOf;
    private final PartitionDeletions.View deleted;
    private byte[] group;
    private long bestTicks;
    private byte[] best;

    /**
     * @param it the range's versions, from the history store (null: none)
     * @param deleted the partition deletions of the range's table, which end the versions before them
     */
    AsOfRows(KeyValueIterator<Bytes, byte[]> it, ByteRange range, EdmDateTime asOf, PartitionDeletions.View deleted) {
        this.it = it;
        this.range = range;
        this.asOf = asOf;
        this.deleted = deleted;
    }

    @Override
    protected StoredEntity fetch() {
        while (true) {
            KeyValue<Bytes, byte[]> kv = it != null && it.hasNext() ? it.next() : null;
            byte[] entity = kv == null ? null : Arrays.copyOf(kv.key.get(), kv.key.get().length - Long.BYTES);
            if (entity != null && !range.contains(entity)) {
                continue; // only the inclusive upper bound of range()/reverseRange() can be outside
            }
            StoredEntity found = null;
            if (group != null && (entity == null || !Arrays.equals(entity, group))) {
                if (best != null) {
                    found = History.stateAt(LogCodecs.CHANGE_EVENT.decode(best), asOf).orElse(null);
                    if (found != null && deleted.firstBetween(found.entity().partitionKey(), bestTicks,
                            asOf.epochTicks()) != null) {
                        found = null; // its partition was deleted after it, by then
                    }
                }
                best = null;
            }
            if (entity == null) {
                return found; // the last group's, or null: the end
            }
            group = entity;
            long ticks = KeyCodec.versionTime(kv.key.get()).epochTicks();
            if (ticks <= asOf.epochTicks() && (best == null || ticks > bestTicks)) {
                best = kv.value;
                bestTicks = ticks;
            }
            if (found != null) {
                return found;
            }
        }
    }

    @Override
    public void close() {
        if (it != null) {
            it.close();
        }
    }
}
