package io.tablestream.core.rules;

import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.JobCommand;
import io.tablestream.core.command.JobSpec;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.IndexDefinition;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules a whole command must satisfy before anything is applied. An entity command: a valid
 * PartitionKey, 1 to 100 operations, each RowKey at most once, every written entity valid. A table
 * command: a positive default TTL if any, and for Set Table ACL at most
 * {@value AccessPolicy#MAX_PER_TABLE} policies with distinct ids. Ingest checks them to answer at
 * once; the processor checks them again, since anyone may write to the command topic. A failure
 * inside a batch names the index of the failing operation.
 */
public final class CommandRules {
    private CommandRules() {
    }

    /** Whether operations of this type may carry an If-Match condition. */
    public static boolean takesCondition(EntityOperation.Type type) {
        return type == EntityOperation.Type.REPLACE || type == EntityOperation.Type.MERGE
                || type == EntityOperation.Type.DELETE;
    }

    public static void validate(EntityCommand command) {
        List<EntityOperation> ops = command.operations();
        if (command.tableId() < 0) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The table id must not be negative.");
        }
        if (ops.isEmpty()) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The command holds no operation.");
        }
        if (ops.size() > Limits.MAX_BATCH_OPERATIONS) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "The batch holds " + ops.size() + " operations; at most " + Limits.MAX_BATCH_OPERATIONS
                            + " changes are permitted per change set.");
        }
        if (!command.batch() && ops.size() != 1) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "A single write holds exactly one operation.");
        }
        Set<String> rowKeys = new HashSet<>();
        for (int i = 0; i < ops.size(); i++) {
            EntityOperation op = ops.get(i);
            try {
                validate(command.partitionKey(), op);
                if (!rowKeys.add(op.rowKey())) {
                    throw TableServiceException.of(ErrorCode.INVALID_DUPLICATE_ROW,
                            "The RowKey '" + op.rowKey() + "' appears more than once in the batch; an entity may appear only once.");
                }
            } catch (TableServiceException e) {
                throw command.batch() ? e.atIndex(i) : e;
            }
        }
    }

    /**
     * One operation on an entity of PartitionKey {@code partitionKey}: valid keys, a valid entity
     * (properties, sizes, TTL) for a write, no properties for a delete, an If-Match condition only
     * where the operation takes one.
     */
    public static void validate(String partitionKey, EntityOperation op) {
        Keys.validatePartitionKey(partitionKey);
        if (op.writesProperties()) {
            Entity entity = Entity.of(partitionKey, op.rowKey(), op.properties());
            EntityRules.validate(entity);
            TimeToLive.validate(op.properties());
        } else {
            Keys.validateRowKey(op.rowKey());
            if (!op.properties().isEmpty()) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT, "A delete carries no properties.");
            }
        }
        if (op.ifMatch() != null && !takesCondition(op.type())) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "An If-Match condition is only allowed on update, merge and delete.");
        }
    }

    /**
     * A bulk command as a whole: a valid table id and at most {@value BulkCommand#MAX_WRITES} writes.
     * Each write is held to the rules of one operation ({@link #validate(String, EntityOperation)})
     * apart, since a write that breaks them fails alone.
     */
    public static void validate(BulkCommand command) {
        if (command.tableId() < 0) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The table id must not be negative.");
        }
        if (command.writes().size() > BulkCommand.MAX_WRITES) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "A bulk command holds at most "
                    + BulkCommand.MAX_WRITES + " writes, not " + command.writes().size() + ".");
        }
    }

    /** The indexes a table is created with: each valid, distinct names and ids, at most {@value Limits#MAX_INDEXES}. */
    private static void validateStartingIndexes(List<IndexDefinition> indexes) {
        if (indexes.size() > Limits.MAX_INDEXES) {
            throw TableServiceException.of(ErrorCode.TOO_MANY_INDEXES);
        }
        Set<String> names = new HashSet<>();
        Set<Long> ids = new HashSet<>();
        for (IndexDefinition i : indexes) {
            IndexRules.requested(i.name(), i.property());
            if (!names.add(i.name().toLowerCase(java.util.Locale.ROOT)) || !ids.add(i.indexId())) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT, "A table's indexes have distinct names and ids.");
            }
        }
    }

    /** A partition deletion: a valid table id and PartitionKey. */
    public static void validate(PartitionDeletion command) {
        if (command.tableId() < 0) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The table id must not be negative.");
        }
        Keys.validatePartitionKey(command.partitionKey());
    }

    /**
     * A job: a valid table id; a deletion's {@code $filter} not empty (Delete Table deletes
     * everything; whether it is well-formed, {@code Filter.parse} says); a restore's target other than
     * its source.
     */
    public static void validate(JobCommand command) {
        JobSpec spec = command.spec();
        if (spec.tableId() < 0) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The table id must not be negative.");
        }
        if (spec instanceof JobSpec.DeleteEntities d) {
            if (d.filter().isBlank()) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                        "A deletion of entities needs a $filter; Delete Table deletes a whole table.");
            }
        } else if (spec instanceof JobSpec.Restore r && r.target().sameTableAs(r.table())) {
            throw TableServiceException.of(ErrorCode.TABLE_ALREADY_EXISTS,
                    "A table is restored into a new table, not into itself.");
        }
    }

    public static void validate(TableCommand command) {
        TimeToLive.validateTableDefault(command.defaultTtlSeconds());
        History.validateRetention(command.historyRetentionSeconds());
        validateStartingIndexes(command.indexes());
        List<AccessPolicy> policies = command.accessPolicies();
        if (command.operation() == TableCommand.Operation.CREATE_INDEX) {
            IndexRules.requested(command.index().name(), command.index().property());
        } else if (command.operation() == TableCommand.Operation.DROP_INDEX) {
            IndexRules.validateName(command.index().name());
        }
        if (command.operation() != TableCommand.Operation.SET_ACL) {
            if (!policies.isEmpty()) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                        "Only a Set Table ACL command carries access policies.");
            }
            return;
        }
        if (command.defaultTtlSeconds() != null || command.historyRetentionSeconds() != null) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "A Set Table ACL command carries no default TTL or history retention.");
        }
        if (policies.size() > AccessPolicy.MAX_PER_TABLE) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "A table may have at most "
                    + AccessPolicy.MAX_PER_TABLE + " stored access policies, not " + policies.size() + ".");
        }
        Set<String> ids = new HashSet<>();
        for (AccessPolicy p : policies) {
            if (!ids.add(p.id())) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                        "The signed identifier '" + p.id() + "' is given more than once.");
            }
        }
    }
}
