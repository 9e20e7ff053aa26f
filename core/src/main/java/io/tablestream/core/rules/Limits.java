package io.tablestream.core.rules;

/** The Table service's size and count limits, in one place. */
public final class Limits {
    /** Properties per entity, the three system properties included. */
    public static final int MAX_PROPERTIES = 255;
    /** Custom properties per entity: {@link #MAX_PROPERTIES} less PartitionKey, RowKey and Timestamp. */
    public static final int MAX_CUSTOM_PROPERTIES = MAX_PROPERTIES - 3;
    /** Characters in a property name. */
    public static final int MAX_PROPERTY_NAME_LENGTH = 255;
    /** Bytes of a string (as UTF-16) or a binary value. */
    public static final int MAX_VALUE_BYTES = 64 * 1024;
    /** Bytes of a PartitionKey or RowKey (as UTF-16). */
    public static final int MAX_KEY_BYTES = 1024;
    /** Bytes of an entity, measured as {@link EntitySize} does. */
    public static final int MAX_ENTITY_BYTES = 1024 * 1024;
    /** Operations in one change set. */
    public static final int MAX_BATCH_OPERATIONS = 100;
    /** Bytes of a whole {@code $batch} request body. */
    public static final int MAX_BATCH_BYTES = 4 * 1024 * 1024;
    /** Bytes of any request body: a larger one is refused with 413 {@code RequestBodyTooLarge}. */
    public static final int MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;
    /** Entities in one bulk upsert ({@code $bulk}, an extension). */
    public static final int MAX_BULK_ENTITIES = 100_000;
    /** Bytes of a bulk upsert's body ({@code $bulk}, an extension): the one request body allowed past {@link #MAX_REQUEST_BODY_BYTES}. */
    public static final int MAX_BULK_BODY_BYTES = 16 * 1024 * 1024;
    /** Entities in one page of a query. */
    public static final int MAX_PAGE_SIZE = 1000;
    /** Secondary indexes of one table (an extension: each costs every write of the table a store write more). */
    public static final int MAX_INDEXES = 8;
    /** Comparisons in one {@code $filter}. */
    public static final int MAX_FILTER_COMPARISONS = 15;

    private Limits() {
    }
}
