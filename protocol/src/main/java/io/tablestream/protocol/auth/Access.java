package io.tablestream.protocol.auth;

import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.TableName;
import io.tablestream.protocol.request.Operation;
import java.util.Objects;

/**
 * What a request is about to do, as {@link Principal#authorize(Access)} checks it: the operation,
 * the table it touches (when it touches one) and, for an operation on one entity, its keys.
 *
 * <p>An operation on one entity must carry the keys, because a service SAS may restrict the key
 * range: for Insert Entity they come from the body, so the HTTP layer authorizes after reading it.
 * A batch is authorized once as {@link Operation#BATCH} and then once per operation inside.
 *
 * @param table the table, {@code null} for account-level operations
 * @param partitionKey the PartitionKey of a single-entity operation or of a partition's deletion, else {@code null}
 * @param rowKey the RowKey of a single-entity operation, else {@code null}
 * @param keys the keys an operation on many entities may touch (a deletion by filter: those its filter
 *     may match), else {@code null}
 */
public record Access(Operation operation, TableName table, String partitionKey, String rowKey, KeyRange keys) {

    /** The operations of the Table service, grouped as SAS permissions see them. */
    public Access {
        Objects.requireNonNull(operation, "operation");
        if (operation.addressesTable()) {
            Objects.requireNonNull(table, () -> operation + " needs a table");
        }
        if (operation.addressesOneEntity()) {
            Objects.requireNonNull(partitionKey, () -> operation + " needs a PartitionKey");
            Objects.requireNonNull(rowKey, () -> operation + " needs a RowKey");
        } else if (operation == Operation.DELETE_PARTITION) {
            Objects.requireNonNull(partitionKey, () -> operation + " needs a PartitionKey");
            if (rowKey != null) {
                throw new IllegalArgumentException(operation + " addresses a whole partition, no RowKey");
            }
        } else if (partitionKey != null || rowKey != null) {
            throw new IllegalArgumentException(operation + " does not address one entity");
        }
        if ((operation == Operation.DELETE_ENTITIES) != (keys != null)) {
            throw new IllegalArgumentException("a deletion by filter, and only one, names the keys it may touch");
        }
    }

    public Access(Operation operation, TableName table, String partitionKey, String rowKey) {
        this(operation, table, partitionKey, rowKey, null);
    }

    /** A deletion by filter of {@code table}, of the entities of {@code keys} (a superset of the filter's matches). */
    public static Access deleteEntities(TableName table, KeyRange keys) {
        return new Access(Operation.DELETE_ENTITIES, table, null, null, keys);
    }

    /** Any operation of the protocol, as the HTTP pipeline resolved it. */
    public static Access of(Operation operation, TableName table, String partitionKey, String rowKey) {
        return new Access(operation, table, partitionKey, rowKey);
    }

    public static Access queryTables() {
        return new Access(Operation.QUERY_TABLES, null, null, null);
    }

    public static Access createTable(TableName table) {
        return new Access(Operation.CREATE_TABLE, table, null, null);
    }

    public static Access deleteTable(TableName table) {
        return new Access(Operation.DELETE_TABLE, table, null, null);
    }

    public static Access queryEntities(TableName table) {
        return new Access(Operation.QUERY_ENTITIES, table, null, null);
    }

    public static Access getEntity(TableName table, String partitionKey, String rowKey) {
        return new Access(Operation.GET_ENTITY, table, partitionKey, rowKey);
    }

    public static Access insertEntity(TableName table, String partitionKey, String rowKey) {
        return new Access(Operation.INSERT_ENTITY, table, partitionKey, rowKey);
    }

    /** Update Entity (Merge Entity needs the same permissions: {@link #of}). */
    public static Access updateEntity(TableName table, String partitionKey, String rowKey) {
        return new Access(Operation.UPDATE_ENTITY, table, partitionKey, rowKey);
    }

    /** Insert Or Replace Entity (Insert Or Merge Entity needs the same permissions: {@link #of}). */
    public static Access upsertEntity(TableName table, String partitionKey, String rowKey) {
        return new Access(Operation.INSERT_OR_REPLACE_ENTITY, table, partitionKey, rowKey);
    }

    public static Access deleteEntity(TableName table, String partitionKey, String rowKey) {
        return new Access(Operation.DELETE_ENTITY, table, partitionKey, rowKey);
    }

    public static Access submitBatch() {
        return new Access(Operation.BATCH, null, null, null);
    }

    public static Access getTableAcl(TableName table) {
        return new Access(Operation.GET_TABLE_ACL, table, null, null);
    }

    public static Access setTableAcl(TableName table) {
        return new Access(Operation.SET_TABLE_ACL, table, null, null);
    }

    public static Access getServiceProperties() {
        return new Access(Operation.GET_SERVICE_PROPERTIES, null, null, null);
    }

    public static Access setServiceProperties() {
        return new Access(Operation.SET_SERVICE_PROPERTIES, null, null, null);
    }

    public static Access getServiceStats() {
        return new Access(Operation.GET_SERVICE_STATS, null, null, null);
    }

    public static Access preflight() {
        return new Access(Operation.PREFLIGHT, null, null, null);
    }
}
