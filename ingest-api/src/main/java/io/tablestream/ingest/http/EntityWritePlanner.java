package io.tablestream.ingest.http;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.odata.EntityBody;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataJsonReader;
import io.tablestream.core.rules.CommandRules;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.batch.BatchOperation;
import io.tablestream.protocol.http.Caller;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.protocol.write.EntityWriteRequest;
import io.tablestream.schemas.LogCodecs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The one place entity writes become commands, for a write of its own, a {@code $batch} change set and a
 * cross-partition transaction alike: each write's table, its keys (the URL's, or an insert's body's),
 * its properties, its If-Match condition, the caller's permission at those keys, whether its answer
 * carries the entity; then the command, held to the rules the processor applies again
 * ({@link CommandRules}). Anything refused is a {@link TableServiceException}; inside a change set it
 * names the index of the operation that failed, and nothing is appended.
 */
final class EntityWritePlanner {
    private final CommandSubmitter submitter;
    private final TableLookup tables;

    EntityWritePlanner(CommandSubmitter submitter, TableLookup tables) {
        this.submitter = submitter;
        this.tables = tables;
    }

    /**
     * One write, planned.
     *
     * @param request      the write as the client stated it
     * @param table        the table it writes
     * @param partitionKey its PartitionKey (the operation holds the RowKey)
     * @param operation    what the command carries
     * @param contentLevel the metadata level of the entity its answer carries; null when it carries none
     */
    record PlannedWrite(EntityWriteRequest request, TableRecord table, String partitionKey, EntityOperation operation,
                        MetadataLevel contentLevel) {
        boolean returnsContent() {
            return contentLevel != null;
        }

        /** The entity as written, with the version the processor gave it. */
        Entity written(EdmDateTime timestamp) {
            return Entity.of(partitionKey, operation.rowKey(), operation.properties()).withVersion(timestamp);
        }
    }

    /** A write of its own, planned: the write and its command (awaited unless the client prefers respond-async). */
    record SingleWrite(PlannedWrite write, EntityCommand command) {
        boolean async() {
            return command.header().replyTo() == null;
        }
    }

    /** A change set, planned: its writes in order (and the operations they came from) and its one command. */
    record ChangeSet(List<BatchOperation> sources, List<PlannedWrite> writes, EntityCommand command) {
        TableRecord table() {
            return writes.get(0).table();
        }
    }

    /** Plans a write of its own by {@code caller} to {@code account}. */
    SingleWrite single(String account, Caller caller, EntityWriteRequest request) {
        TableRecord table = tables.require(account, request.table());
        boolean async = request.preferences().respondAsync();
        PlannedWrite write = plan(caller, table, request, !async);
        EntityCommand command = EntityCommand.single(submitter.header(account, caller.principal(), !async),
                table.tableId(), table.name(), write.partitionKey(), write.operation());
        CommandRules.validate(command);
        return new SingleWrite(write, command);
    }

    /**
     * Plans a Delete Partition by {@code caller}: authorized as a delete of every entity of the
     * PartitionKey (a SAS needs {@code d} and a key range holding the whole partition); awaited unless
     * {@code async}.
     */
    PartitionDeletion partitionDeletion(String account, Caller caller, ResourcePath.EntityPartition target,
                                        boolean async) {
        TableRecord table = tables.require(account, target.table());
        caller.authorize(Operation.DELETE_PARTITION, table.name().value(), target.partitionKey(), null);
        PartitionDeletion command = new PartitionDeletion(submitter.header(account, caller.principal(), !async),
                table.tableId(), table.name(), target.partitionKey());
        CommandRules.validate(command);
        return command;
    }

    /**
     * Plans a {@code $batch} change set: every operation on one table and one PartitionKey (Azure's
     * {@code CommandsInBatchActOnDifferentPartitions} otherwise), each entity at most once, at most 100
     * operations; ONE command, awaited.
     */
    ChangeSet changeSet(String account, Caller caller, List<BatchOperation> operations) {
        List<PlannedWrite> writes = new ArrayList<>(operations.size());
        TableRecord table = null;
        for (BatchOperation op : operations) {
            try {
                EntityWriteRequest request = EntityWriteRequest.fromChangeSet(account, op);
                if (table == null) {
                    table = tables.require(account, request.table());
                } else if (!table.name().sameTableAs(TableName.of(request.table()))) {
                    throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                            "All operations of a change set must act on the same table.");
                }
                PlannedWrite write = plan(caller, table, request, true);
                if (!writes.isEmpty() && !writes.get(0).partitionKey().equals(write.partitionKey())) {
                    throw TableServiceException.of(ErrorCode.COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS);
                }
                writes.add(write);
            } catch (TableServiceException e) {
                throw atOperation(e, op.index());
            }
        }
        if (table == null) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The change set holds no operation.");
        }
        EntityCommand command = EntityCommand.batch(submitter.header(account, caller.principal(), true),
                table.tableId(), table.name(), writes.get(0).partitionKey(),
                writes.stream().map(PlannedWrite::operation).toList());
        CommandRules.validate(command);
        return new ChangeSet(List.copyOf(operations), List.copyOf(writes), command);
    }

    /**
     * Plans a cross-partition transaction (an extension): its operations, on any tables of the account
     * and any PartitionKeys, grouped into parts, one per (table, PartitionKey) in the order they first
     * appear, each a change set of its own (each entity at most once); at most
     * {@value TransactionCommand#MAX_OPERATIONS} operations; ONE command, not awaited. A failure names
     * the operation's index in the request.
     */
    TransactionCommand transaction(String account, Caller caller, List<BatchOperation> operations) {
        if (operations.size() > TransactionCommand.MAX_OPERATIONS) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "A transaction holds at most " + TransactionCommand.MAX_OPERATIONS + " operations.");
        }
        Map<String, TableRecord> tablesByName = new HashMap<>();
        Map<String, List<PlannedWrite>> groups = new LinkedHashMap<>();
        Map<String, List<Integer>> indexesOfGroup = new HashMap<>();
        for (BatchOperation op : operations) {
            try {
                EntityWriteRequest request = EntityWriteRequest.fromChangeSet(account, op);
                TableRecord table = tablesByName.computeIfAbsent(request.table().toLowerCase(Locale.ROOT),
                        name -> tables.require(account, request.table()));
                PlannedWrite write = plan(caller, table, request, true);
                String group = table.tableId() + "/" + write.partitionKey();
                groups.computeIfAbsent(group, g -> new ArrayList<>()).add(write);
                indexesOfGroup.computeIfAbsent(group, g -> new ArrayList<>()).add(op.index());
            } catch (TableServiceException e) {
                throw atOperation(e, op.index());
            }
        }
        String transactionId = UUID.randomUUID().toString();
        CommandHeader header = submitter.header(account, caller.principal(), false);
        List<EntityCommand> parts = new ArrayList<>(groups.size());
        for (Map.Entry<String, List<PlannedWrite>> g : groups.entrySet()) {
            List<PlannedWrite> writes = g.getValue();
            TableRecord table = writes.get(0).table();
            int index = parts.size();
            EntityCommand part = EntityCommand.part(LogCodecs.partHeader(header, transactionId, index), table.tableId(),
                    table.name(), writes.get(0).partitionKey(), writes.stream().map(PlannedWrite::operation).toList(),
                    transactionId, index);
            try {
                CommandRules.validate(part);
            } catch (TableServiceException e) {
                // the index within the part, as the index within the request
                throw e.failedIndex().isPresent()
                        ? e.atIndex(indexesOfGroup.get(g.getKey()).get(e.failedIndex().getAsInt())) : e;
            }
            parts.add(part);
        }
        return new TransactionCommand(header, transactionId, parts);
    }

    /**
     * Plans one write to {@code table} (found already): the keys (an insert's from its body, every other
     * write's from its URL), the properties (none for a delete), the If-Match condition, the caller's
     * permission at those keys, and whether and how its answer carries the entity.
     *
     * @param answered whether the write is answered with its outcome (an async write's answer carries no entity)
     */
    PlannedWrite plan(Caller caller, TableRecord table, EntityWriteRequest request, boolean answered) {
        EntityOperation.Type type = request.type();
        String partitionKey = request.partitionKey();
        String rowKey = request.rowKey();
        Map<String, EdmValue> properties = Map.of();
        if (type != EntityOperation.Type.DELETE) {
            EntityBody body = ODataJsonReader.readEntity(request.bodyBytes());
            if (type == EntityOperation.Type.INSERT) {
                Entity entity = body.toEntity(); // an insert names its keys in the body
                partitionKey = entity.partitionKey();
                rowKey = entity.rowKey();
            }
            properties = body.properties();
        }
        String condition = request.condition();
        caller.authorize(request.operation(), table.name().value(), partitionKey, rowKey);
        MetadataLevel contentLevel = answered && request.returnsContent() ? request.responseLevel() : null;
        return new PlannedWrite(request, table, partitionKey, EntityOperation.of(type, rowKey, condition, properties),
                contentLevel);
    }

    private static TableServiceException atOperation(TableServiceException e, int index) {
        return e.failedIndex().isPresent() ? e : e.atIndex(index);
    }
}
