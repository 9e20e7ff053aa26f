package io.tablestream.protocol.auth;

import io.tablestream.core.model.TableName;
import java.util.Objects;

/**
 * What a request is about to do, as {@link Principal#authorize(Access)} checks it: the operation,
 * the table it touches (when it touches one) and, for an operation on one entity, its keys.
 *
 * <p>An operation on one entity must carry the keys, because a service SAS may restrict the key
 * range: for Insert Entity they come from the body, so the HTTP layer authorizes after reading it.
 * A batch is authorized once as {@link Operation#SUBMIT_BATCH} and then once per operation inside.
 *
 * @param table the table, {@code null} for account-level operations
 * @param partitionKey the PartitionKey of a single-entity operation, else {@code null}
 * @param rowKey the RowKey of a single-entity operation, else {@code null}
 */
public record Access(Operation operation, TableName table, String partitionKey, String rowKey) {

    /** The operations of the Table service, grouped as SAS permissions see them. */
    public enum Operation {
        QUERY_TABLES(Level.SERVICE_TABLES),
        CREATE_TABLE(Level.SERVICE_TABLES),
        DELETE_TABLE(Level.SERVICE_TABLES),
        /** Query Entities: a query over the table, results limited by the SAS key range. */
        QUERY_ENTITIES(Level.TABLE),
        /** Query Entities addressing one entity by its keys. */
        GET_ENTITY(Level.ENTITY),
        INSERT_ENTITY(Level.ENTITY),
        /** Update Entity and Merge Entity (an If-Match condition is present). */
        UPDATE_ENTITY(Level.ENTITY),
        /** Insert Or Merge Entity and Insert Or Replace Entity (no If-Match). */
        UPSERT_ENTITY(Level.ENTITY),
        DELETE_ENTITY(Level.ENTITY),
        /** The $batch request itself; each operation inside is authorized on its own. */
        SUBMIT_BATCH(Level.ACCOUNT),
        GET_TABLE_ACL(Level.TABLE),
        SET_TABLE_ACL(Level.TABLE),
        GET_SERVICE_PROPERTIES(Level.ACCOUNT),
        SET_SERVICE_PROPERTIES(Level.ACCOUNT),
        GET_SERVICE_STATS(Level.ACCOUNT),
        /** A CORS preflight (OPTIONS); the service never asks it for credentials. */
        PREFLIGHT(Level.ACCOUNT);

        private final Level level;

        Operation(Level level) {
            this.level = level;
        }

        /** Whether the operation addresses one entity and so carries its keys. */
        public boolean isSingleEntity() {
            return level == Level.ENTITY;
        }

        boolean needsTable() {
            return level == Level.TABLE || level == Level.ENTITY || this == DELETE_TABLE || this == CREATE_TABLE;
        }

        private enum Level { ACCOUNT, SERVICE_TABLES, TABLE, ENTITY }
    }

    public Access {
        Objects.requireNonNull(operation, "operation");
        if (operation.needsTable()) {
            Objects.requireNonNull(table, () -> operation + " needs a table");
        }
        if (operation.isSingleEntity()) {
            Objects.requireNonNull(partitionKey, () -> operation + " needs a PartitionKey");
            Objects.requireNonNull(rowKey, () -> operation + " needs a RowKey");
        } else if (partitionKey != null || rowKey != null) {
            throw new IllegalArgumentException(operation + " does not address one entity");
        }
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

    /** Update Entity or Merge Entity. */
    public static Access updateEntity(TableName table, String partitionKey, String rowKey) {
        return new Access(Operation.UPDATE_ENTITY, table, partitionKey, rowKey);
    }

    /** Insert Or Merge Entity or Insert Or Replace Entity. */
    public static Access upsertEntity(TableName table, String partitionKey, String rowKey) {
        return new Access(Operation.UPSERT_ENTITY, table, partitionKey, rowKey);
    }

    public static Access deleteEntity(TableName table, String partitionKey, String rowKey) {
        return new Access(Operation.DELETE_ENTITY, table, partitionKey, rowKey);
    }

    public static Access submitBatch() {
        return new Access(Operation.SUBMIT_BATCH, null, null, null);
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
