package io.tablestream.protocol.http;

import io.tablestream.core.filter.KeyRange;
import io.tablestream.protocol.request.Operation;
import java.util.Map;

/**
 * Who sent a request, as authentication established it, and what they may do. The HTTP layer
 * asks once per operation (and per entity for writes), and narrows queries to the keys the caller
 * may read.
 */
public interface Caller {
    /** A short description for the audit trail, e.g. {@code sharedkey:devstoreaccount1} or {@code sas:table}. */
    String principal();

    /**
     * Throws the service's 403 when the caller may not perform {@code operation} on {@code table}
     * (null for service-level operations) at the given keys (null when the operation has none).
     */
    void authorize(Operation operation, String table, String partitionKey, String rowKey);

    /**
     * Throws the service's 403 when the caller may not perform {@code operation}, an operation on
     * many entities of {@code table} (a deletion by filter), on every entity of {@code keys}.
     */
    default void authorize(Operation operation, String table, KeyRange keys) {
        authorize(operation, table, null, null);
    }

    /**
     * A range covering the keys the caller may read in {@code table}: {@link KeyRange#ALL} unless a
     * SAS restricts them. It may cover more than the SAS allows; {@link #mayRead} decides per entity.
     */
    KeyRange readableKeys(String table);

    /** Whether the caller may read the entity at these keys of {@code table} (checked on every row a query returns). */
    boolean mayRead(String table, String partitionKey, String rowKey);

    /** Whether the caller may read some entity of the PartitionKey of {@code table} (for events of a whole partition). */
    default boolean mayReadSomeOf(String table, String partitionKey) {
        return mayRead(table, partitionKey, "");
    }

    /**
     * Headers to add when this request is forwarded to another instance, so that instance
     * authenticates it exactly as the client sent it (the client's address and scheme, which a
     * SAS may restrict, vouched for with the account's key). Empty when there is nothing to vouch for.
     */
    default Map<String, String> forwardingHeaders() {
        return Map.of();
    }
}
