package io.tablestream.processor.internal;

import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.core.model.TableRecord;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * Removes, a bounded number per round, the rows a task still holds for deleted tables and deleted
 * partitions. Their rows were invisible from the moment of the delete (reads resolve names to live
 * ids only; a partition's rows written at or before its deletion count as gone,
 * {@link PartitionDeletions}); this only reclaims space. The design guide's pattern for deleting a
 * high volume of entities.
 *
 * <p>Only deletions this partition has seen in its own log are swept, and only rows no command can
 * see any more: every entity command after a table's deletion finds no table, and every command
 * after a partition's deletion finds its older rows absent. So whenever the sweep runs, it cannot
 * change what a command decides (sweeping by the global view could remove rows a command before
 * the deletion still reads, and a replay would then decide it otherwise). A partition's rows
 * written after its deletion are never touched.
 */
final class DeletedRowsSweep {
    private final PartitionTables tables;
    private final EntityRows rows;
    private final int batch;
    /** Told how many rows each step removed (the metrics). */
    private final IntConsumer removed;
    /** Deleted tables this task has no rows of any more (never rows again: ids are not reused). */
    private final Set<Long> swept = new HashSet<>();
    /** Partition deletions whose older rows are all removed (kept for tables with history). */
    private final Set<String> sweptPartitions = new HashSet<>();
    /** Where the sweep of a partition deletion resumes (in memory: after a restart it starts over). */
    private final Map<String, byte[]> resumeAt = new HashMap<>();

    DeletedRowsSweep(PartitionTables tables, EntityRows rows, int batch, IntConsumer removed) {
        this.tables = tables;
        this.rows = rows;
        this.batch = batch;
        this.removed = removed;
    }

    void sweep(long wallClockMillis) {
        int budget = batch;
        for (long tableId : tables.deleted()) {
            if (budget <= 0) {
                return;
            }
            if (swept.contains(tableId)) {
                continue;
            }
            int deleted = rows.deleteRange(KeyCodec.table(tableId), budget);
            removed.accept(deleted);
            budget -= deleted;
            if (budget > 0) {
                swept.add(tableId);
            }
        }
        for (PartitionDeletions.Deletion d : tables.partitionDeletions()) {
            if (budget <= 0) {
                return;
            }
            if (sweptPartitions.contains(d.key())) {
                continue;
            }
            TableRecord table = tables.byId(d.tableId()).orElse(null);
            if (table == null || !table.isActive()) {
                tables.forget(d); // the table's rows go with it (above)
                continue;
            }
            ByteRange partition = KeyCodec.partition(d.tableId(), d.partitionKey());
            byte[] from = resumeAt.getOrDefault(d.key(), partition.fromInclusive());
            EntityRows.Swept round = rows.deleteWrittenUpTo(new ByteRange(from, partition.toExclusive()), d.ticks(),
                    budget);
            budget -= round.examined();
            removed.accept(round.deleted());
            if (round.next() != null) {
                resumeAt.put(d.key(), round.next());
            } else {
                resumeAt.remove(d.key());
                if (table.keepsHistory()) {
                    sweptPartitions.add(d.key());
                } else {
                    tables.forget(d);
                }
            }
        }
    }
}
