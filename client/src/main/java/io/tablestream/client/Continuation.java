package io.tablestream.client;

import java.util.Objects;

/**
 * Where the next page of a Query Entities answer starts, as the service said in its
 * {@code x-ms-continuation-NextPartitionKey} and {@code -NextRowKey} headers (opaque tokens).
 *
 * @param rowKey may be null (the service sent a partition key only)
 */
public record Continuation(String partitionKey, String rowKey) {
    public Continuation {
        Objects.requireNonNull(partitionKey, "partitionKey");
    }
}
