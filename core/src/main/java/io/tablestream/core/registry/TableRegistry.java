package io.tablestream.core.registry;

import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * An instance's view of the table registry: which tables exist, under which ids, with which
 * stored access policies, and each account's service properties. Every instance
 * holds all of it (the processor keeps it as a global store fed by the tables topic), so lookups
 * are local; the view follows the log, so it can lag a write by milliseconds, and
 * {@link #awaitChange} lets a request wait for it to catch up.
 */
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

    /**
     * The Table service properties of {@code account}: {@link ServiceProperties#DEFAULT} for an
     * account that never set them.
     */
    ServiceProperties serviceProperties(String account);

    /** Completes once {@code condition} holds for this view; the caller bounds the wait. */
    CompletableFuture<Void> awaitChange(BooleanSupplier condition);
}
