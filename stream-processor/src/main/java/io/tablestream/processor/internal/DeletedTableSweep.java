package io.tablestream.processor.internal;

import io.tablestream.core.codec.KeyCodec;
import java.util.HashSet;
import java.util.Set;

/**
 * Removes, a bounded number per round, the rows a task still holds for deleted tables. Their rows
 * were invisible from the moment of the delete (reads resolve names to live ids only); this only
 * reclaims space. The design guide's pattern for deleting a high volume of entities.
 */
final class DeletedTableSweep {
    private final RegistryView registry;
    private final EntityRows rows;
    private final int batch;
    /** Deleted tables this task has no rows of any more (never rows again: ids are not reused). */
    private final Set<Long> swept = new HashSet<>();

    DeletedTableSweep(RegistryView registry, EntityRows rows, int batch) {
        this.registry = registry;
        this.rows = rows;
        this.batch = batch;
    }

    void sweep(long wallClockMillis) {
        int budget = batch;
        for (long tableId : registry.deletedTableIds()) {
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
