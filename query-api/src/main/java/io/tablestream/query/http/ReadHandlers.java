package io.tablestream.query.http;

import io.tablestream.core.model.Entity;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.core.rules.History;
import io.tablestream.processor.store.AppliedOffsets;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.query.routing.InstanceClient;
import io.tablestream.query.routing.KeyLocator;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The read side's handlers, one per resource as on the write side: Query Tables
 * ({@link TableQueryHandler}), Get Entity and its history ({@link EntityReadHandler}), Query
 * Entities and Count Entities ({@link EntityQueryHandler}),
 * a transaction's status ({@link TransactionStatusHandler}), a job's and the account's jobs
 * ({@link JobStatusHandler}), List Indexes ({@link IndexStatus}), and
 * the reads the registry answers ({@link RegistryReadHandlers}). Every instance answers every read:
 * how a read reaches its partitions — here, forwarded, or scatter-gathered — is
 * {@link PartitionReads} and {@link ScatterGather}, shared by them all.
 */
public final class ReadHandlers {
    private ReadHandlers() {
    }

    /**
     * @param instances how this instance reads from the others
     * @param ends where the command log ends: a session token past it is refused at once
     * @param sessionTimeout how long a read waits for the writes its session token names
     * @param budgets how much one page may examine and hold before it ends with a continuation
     * @param readers where reads that had to wait run (never on the thread that ended the wait)
     */
    public static Map<Operation, OperationHandler> create(TableRegistry registry, EntityStore store, KeyLocator locator,
                                                          InstanceClient instances, AppliedOffsets applied,
                                                          CommandLogEnds ends, Duration sessionTimeout,
                                                          QueryBudgets budgets, Executor readers) {
        TableLookup tables = new TableLookup(registry);
        PartitionReads reads = new PartitionReads(store, locator, instances, applied, ends, sessionTimeout, budgets,
                readers);
        EntityQueryHandler entityQueries = new EntityQueryHandler(tables, reads);
        RegistryReadHandlers registryReads = new RegistryReadHandlers(registry, tables);
        Map<Operation, OperationHandler> handlers = new EnumMap<>(Operation.class);
        handlers.put(Operation.QUERY_TABLES, new TableQueryHandler(registry, tables, budgets.tableScanBudget())::handle);
        EntityReadHandler entityReads = new EntityReadHandler(tables, store, reads);
        handlers.put(Operation.GET_ENTITY, entityReads::get);
        handlers.put(Operation.GET_ENTITY_HISTORY, entityReads::history);
        handlers.put(Operation.QUERY_ENTITIES, entityQueries::query);
        handlers.put(Operation.COUNT_ENTITIES, entityQueries::count);
        handlers.put(Operation.GET_TABLE_ACL, registryReads::tableAcl);
        handlers.put(Operation.LIST_INDEXES, new IndexStatus(tables, store, locator)::list);
        handlers.put(Operation.GET_TRANSACTION, new TransactionStatusHandler(store, reads)::handle);
        JobStatusHandler jobs = new JobStatusHandler(store, reads);
        handlers.put(Operation.GET_JOB, jobs::get);
        handlers.put(Operation.LIST_JOBS, jobs::list);
        handlers.put(Operation.GET_SERVICE_PROPERTIES, registryReads::serviceProperties);
        handlers.put(Operation.GET_SERVICE_STATS, registryReads::serviceStats);
        return handlers;
    }
}
