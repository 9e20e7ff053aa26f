package io.tablestream.protocol.request;

import io.tablestream.core.rules.Limits;

/** The Table service operations, as resolved from method, path, query and headers. */
public enum Operation {
    QUERY_TABLES(Body.JSON),
    CREATE_TABLE(Body.JSON),
    DELETE_TABLE(Body.JSON),
    QUERY_ENTITIES(Body.JSON),
    /** {@code GET <table>()/$count}: how many entities match (an extension; authorized as Query Entities). */
    COUNT_ENTITIES(Body.JSON),
    GET_ENTITY(Body.JSON),
    /** {@code GET <table>(PartitionKey='p',RowKey='r')/$history}: an entity's versions (an extension; authorized as Get Entity). */
    GET_ENTITY_HISTORY(Body.JSON),
    /** {@code GET <table>()/$changes}: the table's change feed from a cursor (an extension; authorized as Query Entities). */
    READ_CHANGES(Body.JSON),
    INSERT_ENTITY(Body.JSON),
    UPDATE_ENTITY(Body.JSON),
    MERGE_ENTITY(Body.JSON),
    INSERT_OR_REPLACE_ENTITY(Body.JSON),
    INSERT_OR_MERGE_ENTITY(Body.JSON),
    DELETE_ENTITY(Body.JSON),
    /** {@code DELETE <table>(PartitionKey='p')/$partition}: every entity of one PartitionKey (an extension; authorized as a delete of all of them). */
    DELETE_PARTITION(Body.JSON),
    BATCH(Body.JSON),
    /**
     * {@code POST <table>()/$bulk}: many entities upserted (or inserted) at once, one per line (an
     * extension; authorized as the write of each entity).
     */
    BULK_WRITE(Body.JSON),
    GET_TABLE_ACL(Body.XML),
    SET_TABLE_ACL(Body.XML),
    GET_SERVICE_PROPERTIES(Body.XML),
    SET_SERVICE_PROPERTIES(Body.XML),
    GET_SERVICE_STATS(Body.XML),
    /** An extension: {@code GET /{table}?comp=indexes}, the table's secondary indexes and how far each is built. */
    LIST_INDEXES(Body.JSON),
    /** An extension: {@code POST /{table}?comp=indexes} with {@code {"Name":..,"Property":..}}. */
    CREATE_INDEX(Body.JSON),
    /** An extension: {@code DELETE /{table}?comp=indexes&name=..}. */
    DROP_INDEX(Body.JSON),
    /** An extension: {@code POST /$transactions} with a {@code $batch} body whose change set spans PartitionKeys and tables. */
    SUBMIT_TRANSACTION(Body.JSON),
    /** An extension: {@code GET /$transactions('id')}, a cross-partition transaction's status. */
    GET_TRANSACTION(Body.JSON),
    /**
     * An extension: {@code POST <table>()/$restore} with {@code {"TableName":..,"AsOf":..}}, a new table
     * holding the entities the table held at a time (a job; authorized as Create Table and a Query
     * Entities of the whole table).
     */
    RESTORE_TABLE(Body.JSON),
    /**
     * An extension: {@code DELETE <table>()?$filter=..}, every entity that matched (a job; authorized as
     * a delete of every entity the filter may match).
     */
    DELETE_ENTITIES(Body.JSON),
    /** An extension: {@code GET /$jobs/<id>}, a job's status. */
    GET_JOB(Body.JSON),
    /** An extension: {@code GET /$jobs}, the account's recent jobs. */
    LIST_JOBS(Body.JSON),
    /** Answered without a body; refused with the storage {@code <Error>} XML, as a preflight carries no OData format. */
    PREFLIGHT(Body.XML);

    /** How the operation's responses, errors included, are written. */
    public enum Body { JSON, XML }

    private final Body body;

    Operation(Body body) {
        this.body = body;
    }

    public Body body() {
        return body;
    }

    /** Whether the request carries a JSON body (a table or an entity) whose Content-Type must say so. */
    public boolean takesJsonBody() {
        return switch (this) {
            case CREATE_TABLE, INSERT_ENTITY, UPDATE_ENTITY, MERGE_ENTITY, INSERT_OR_REPLACE_ENTITY,
                 INSERT_OR_MERGE_ENTITY, CREATE_INDEX, RESTORE_TABLE -> true;
            default -> false;
        };
    }

    /** Whether the operation addresses one entity (and so carries its PartitionKey and RowKey). */
    public boolean addressesOneEntity() {
        return switch (this) {
            case GET_ENTITY, GET_ENTITY_HISTORY, INSERT_ENTITY, UPDATE_ENTITY, MERGE_ENTITY, INSERT_OR_REPLACE_ENTITY,
                 INSERT_OR_MERGE_ENTITY, DELETE_ENTITY -> true;
            default -> false;
        };
    }

    /** Whether the operation addresses one table (its entities, its ACL, or the table itself). */
    public boolean addressesTable() {
        return switch (this) {
            case CREATE_TABLE, DELETE_TABLE, QUERY_ENTITIES, COUNT_ENTITIES, READ_CHANGES, GET_TABLE_ACL, SET_TABLE_ACL,
                 LIST_INDEXES, CREATE_INDEX, DROP_INDEX, DELETE_PARTITION, BULK_WRITE, RESTORE_TABLE, DELETE_ENTITIES -> true;
            default -> addressesOneEntity();
        };
    }

    /** Whether the operation writes (goes through the command log). */
    public boolean isWrite() {
        return switch (this) {
            case CREATE_TABLE, DELETE_TABLE, INSERT_ENTITY, UPDATE_ENTITY, MERGE_ENTITY, INSERT_OR_REPLACE_ENTITY,
                 INSERT_OR_MERGE_ENTITY, DELETE_ENTITY, DELETE_PARTITION, BATCH, SET_TABLE_ACL, SET_SERVICE_PROPERTIES, CREATE_INDEX,
                 DROP_INDEX, SUBMIT_TRANSACTION, BULK_WRITE, RESTORE_TABLE, DELETE_ENTITIES -> true;
            default -> false;
        };
    }

    /**
     * Bytes of request body the operation takes at most, {@code otherwise} for every operation but
     * the one that takes more (a bulk write, {@value Limits#MAX_BULK_BODY_BYTES}).
     */
    public long maxBodyBytes(long otherwise) {
        return this == BULK_WRITE ? Limits.MAX_BULK_BODY_BYTES : otherwise;
    }
}
