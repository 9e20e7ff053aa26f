package io.tablestream.ingest.http;

import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
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
import io.tablestream.core.odata.BulkResultJsonWriter;
import io.tablestream.core.odata.EntityBody;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataJsonReader;
import io.tablestream.core.rules.CommandRules;
import io.tablestream.core.rules.Limits;
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
 * The one place entity writes become commands, for a write of its own, a {@code $batch} change set, a
 * cross-partition transaction and a bulk write alike: each write's table, its keys (the URL's, or an insert's body's),
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

    /** Writes a bulk command holds at most: a record of the log of a bounded size, decided in one go. */
    static final int BULK_COMMAND_WRITES = 2_000;
    /** Body bytes (JSON, larger than the command's Avro) of the writes one bulk command holds at most. */
    static final int BULK_COMMAND_BYTES = 1024 * 1024;

    /**
     * A bulk write, planned: its commands, each holding writes whose PartitionKeys share one
     * partition of the log, in body order, and for each command the body line of each write (lines
     * are numbered from 1); the lines refused while planning, and how many lines held an entity.
     */
    record BulkWrite(List<BulkCommand> commands, List<int[]> lines, List<BulkResultJsonWriter.FailedLine> refused,
                     int entities) {
    }

    /**
     * Plans a bulk write by {@code caller} to table {@code tableName}: one entity per line of
     * {@code body} (blank lines are skipped), each written as {@code mode} says, grouped into
     * commands by the partition of the log its PartitionKey belongs on, at most
     * {@value #BULK_COMMAND_WRITES} writes or about {@value #BULK_COMMAND_BYTES} bytes each. A line
     * that is not an entity, breaks the rules of a write of its own, or lies outside the caller's key
     * range is refused alone. Refused as a whole (nothing planned): a missing table, a caller that
     * may not write the table in this mode, more than {@value Limits#MAX_BULK_ENTITIES} entities.
     *
     * @param awaited whether the commands' outcomes are awaited (they then name this instance)
     */
    BulkWrite bulk(String account, Caller caller, String tableName, BulkMode mode, byte[] body, boolean awaited) {
        TableRecord table = tables.require(account, tableName);
        String name = table.name().value();
        caller.authorize(Operation.BULK_WRITE, name, null, null);
        Map<Integer, BulkGroup> groups = new HashMap<>();
        List<BulkCommand> commands = new ArrayList<>();
        List<int[]> lines = new ArrayList<>();
        List<BulkResultJsonWriter.FailedLine> refused = new ArrayList<>();
        int entities = 0;
        int line = 0;
        for (int start = 0; start < body.length; ) {
            int newline = indexOf(body, (byte) '\n', start);
            int end = newline < 0 ? body.length : newline;
            int next = end + 1;
            line++;
            if (end > start && body[end - 1] == '\r') {
                end--;
            }
            if (!isBlank(body, start, end)) {
                if (++entities > Limits.MAX_BULK_ENTITIES) {
                    throw TableServiceException.of(ErrorCode.INVALID_INPUT, "A bulk write holds at most "
                            + Limits.MAX_BULK_ENTITIES + " entities; line " + line + " holds one more.");
                }
                try {
                    Entity entity = ODataJsonReader.readEntity(body, start, end - start).toEntity();
                    caller.authorize(mode.operation(), name, entity.partitionKey(), entity.rowKey());
                    EntityOperation op = EntityOperation.of(mode.type(), entity.rowKey(), null, entity.properties());
                    CommandRules.validate(entity.partitionKey(), op);
                    int partition = submitter.partitionOf(CommandKey.forEntity(account, table.tableId(),
                            entity.partitionKey()));
                    BulkGroup group = groups.computeIfAbsent(partition, p -> new BulkGroup());
                    group.add(new BulkCommand.Write(entity.partitionKey(), op), line, end - start);
                    if (group.full()) {
                        group.seal(submitter.header(account, caller.principal(), awaited), table, commands, lines);
                    }
                } catch (TableServiceException e) {
                    if (e.errorCode() == ErrorCode.AUTHORIZATION_PERMISSION_MISMATCH) {
                        throw e; // the mode needs a permission the caller lacks: no line may be written
                    }
                    refused.add(new BulkResultJsonWriter.FailedLine(line, e.errorCode(), e.getMessage()));
                }
            }
            start = next;
        }
        for (BulkGroup group : groups.values()) {
            if (!group.writes.isEmpty()) {
                group.seal(submitter.header(account, caller.principal(), awaited), table, commands, lines);
            }
        }
        return new BulkWrite(commands, lines, refused, entities);
    }

    /** The writes planned for one partition of the log and not yet in a command. */
    private static final class BulkGroup {
        final List<BulkCommand.Write> writes = new ArrayList<>();
        final List<Integer> lines = new ArrayList<>();
        long bytes;

        void add(BulkCommand.Write write, int line, int lineBytes) {
            writes.add(write);
            lines.add(line);
            bytes += lineBytes;
        }

        boolean full() {
            return writes.size() >= BULK_COMMAND_WRITES || bytes >= BULK_COMMAND_BYTES;
        }

        void seal(CommandHeader header, TableRecord table, List<BulkCommand> commands, List<int[]> linesOf) {
            BulkCommand command = new BulkCommand(header, table.tableId(), table.name(), writes);
            CommandRules.validate(command);
            commands.add(command);
            linesOf.add(lines.stream().mapToInt(Integer::intValue).toArray());
            writes.clear();
            lines.clear();
            bytes = 0;
        }
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isBlank(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
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
