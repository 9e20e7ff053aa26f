package io.tablestream.ingest.http;

import io.tablestream.core.registry.TableRegistry;
import io.tablestream.ingest.command.CommandLog;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executor;

/** The write side's handlers, one per write operation, for the protocol's pipeline to mount. */
public final class WriteHandlers {
    private WriteHandlers() {
    }

    /**
     * @param writeTimeout how long a sync write waits for its outcome before answering 503
     * @param registryTimeout how long a table or settings change waits for this instance's registry view
     * @param responders where answers are written once an outcome arrives (never the Kafka threads)
     */
    public static Map<Operation, OperationHandler> create(CommandLog log, TableRegistry registry, Clock clock,
                                                          Duration writeTimeout, Duration registryTimeout,
                                                          Executor responders) {
        CommandSubmitter submitter = new CommandSubmitter(log, clock, writeTimeout);
        TableLookup tables = new TableLookup(registry);
        RegistryWait registryWait = new RegistryWait(registry, registryTimeout);
        TableWriteHandlers tableWrites = new TableWriteHandlers(submitter, registry, registryWait, responders);
        ServicePropertiesWriteHandler serviceProperties =
                new ServicePropertiesWriteHandler(submitter, registry, registryWait, responders);
        EntityWritePlanner planner = new EntityWritePlanner(submitter, tables);
        EntityWriteHandlers entityWrites = new EntityWriteHandlers(submitter, planner, responders);
        BatchWriteHandler batch = new BatchWriteHandler(submitter, planner, clock, responders);
        BulkWriteHandler bulk = new BulkWriteHandler(submitter, planner, responders);
        JobWriteHandlers jobs = new JobWriteHandlers(submitter, registry, registryWait, responders);
        Map<Operation, OperationHandler> handlers = new EnumMap<>(Operation.class);
        handlers.put(Operation.CREATE_TABLE, tableWrites::create);
        handlers.put(Operation.DELETE_TABLE, tableWrites::delete);
        handlers.put(Operation.SET_TABLE_ACL, tableWrites::setAcl);
        handlers.put(Operation.CREATE_INDEX, tableWrites::createIndex);
        handlers.put(Operation.DROP_INDEX, tableWrites::dropIndex);
        handlers.put(Operation.SET_SERVICE_PROPERTIES, serviceProperties::set);
        for (Operation op : new Operation[] {Operation.INSERT_ENTITY, Operation.UPDATE_ENTITY, Operation.MERGE_ENTITY,
                Operation.INSERT_OR_REPLACE_ENTITY, Operation.INSERT_OR_MERGE_ENTITY, Operation.DELETE_ENTITY}) {
            handlers.put(op, entityWrites::handle);
        }
        handlers.put(Operation.DELETE_PARTITION, entityWrites::deletePartition);
        handlers.put(Operation.BATCH, batch::handle);
        handlers.put(Operation.SUBMIT_TRANSACTION, batch::submitTransaction);
        handlers.put(Operation.BULK_WRITE, bulk::handle);
        handlers.put(Operation.RESTORE_TABLE, jobs::restore);
        handlers.put(Operation.DELETE_ENTITIES, jobs::deleteEntities);
        return handlers;
    }
}
