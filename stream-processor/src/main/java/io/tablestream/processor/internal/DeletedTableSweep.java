package io.tablestream.processor.internal;

import io.tablestream.core.storekey.KeyCodec;
import java.util.HashSet;
import java.util.Set;

/**
 * Removes, a bounded number per round, the rows a task still holds for deleted tables. Their rows
 * were invisible from the moment of the delete (reads resolve names to live ids only); this only
 * reclaims space. The design guide's pattern for deleting a high volume of entities.
 *
 * <p>Only tables whose deletion this partition has seen in its own log are swept: every entity
 * command after that point finds no table, so whenever the sweep runs, it cannot change what a
 * command decides (sweeping by the global view could remove rows a command before the deletion
 * still reads, and a replay would then decide it otherwise).
 */
final class DeletedTableSweep {
    private final PartitionTables tables;
    private final EntityRows rows;
    private final int batch;
    /** Deleted tables this task has no rows of any more (never rows again: ids are not reused). */
    private final Set<Long> swept = new HashSet<>();

    DeletedTableSweep(PartitionTables tables, EntityRows rows, int batch) {
        this.tables = tables;
        this.rows = rows;
        this.batch = batch;
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
            budget -= deleted;
            if (budget > 0) {
                swept.add(tableId);
            }
        }
    }
}
