package io.tablestream.processor.store;

import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import java.util.List;
import java.util.Optional;

/** This instance's view of the table registry (a global store: every instance has all of it). */
public interface TableRegistry {
    /** The active table of that name (case-insensitive) in {@code account}. */
    Optional<TableRecord> byName(String account, TableName name);

    /** The table with that id, active or deleted. */
    Optional<TableRecord> byId(long tableId);

    /**
     * Active tables of {@code account} in order of their lower-case names, starting at
     * {@code fromNameKey} (a lower-case name, inclusive; null for the first), at most {@code limit}.
     */
    List<TableRecord> list(String account, String fromNameKey, int limit);
}
