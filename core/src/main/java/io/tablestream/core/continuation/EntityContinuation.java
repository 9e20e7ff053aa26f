package io.tablestream.core.continuation;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.rules.Keys;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.KeyCodec;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a paged Query Entities resumes: the first key not yet returned, inclusive. Sent as the
 * {@code x-ms-continuation-NextPartitionKey} and {@code x-ms-continuation-NextRowKey} headers and
 * passed back as the {@code NextPartitionKey} and {@code NextRowKey} query parameters, each an
 * opaque token (see {@link #nextPartitionKeyToken()}).
 */
public record EntityContinuation(String partitionKey, String rowKey) {
    public static final String NEXT_PARTITION_KEY = "NextPartitionKey";
    public static final String NEXT_ROW_KEY = "NextRowKey";

    /** @throws IllegalArgumentException when either is not a valid key */
    public EntityContinuation {
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(rowKey, "rowKey");
        if (!Keys.isValid(partitionKey) || !Keys.isValid(rowKey)) {
            throw new IllegalArgumentException("a continuation must be a valid key");
        }
    }

    /** Resume at (and including) the entity with these keys. */
    public static EntityContinuation at(String partitionKey, String rowKey) {
        return new EntityContinuation(partitionKey, rowKey);
    }

    /** Resume at (and including) this entity. */
    public static EntityContinuation at(EntityKey key) {
        return new EntityContinuation(key.partitionKey(), key.rowKey());
    }

    /**
     * The continuation a request carries: empty when it has neither parameter; the start of
     * partition {@code NextPartitionKey} when it has no {@code NextRowKey} (the service may send
     * a partition key alone).
     *
     * @throws TableServiceException {@code InvalidInput} (400) when a
     *     token is malformed, empty, does not carry a valid key, or {@code NextRowKey} comes
     *     without {@code NextPartitionKey}
     */
    public static Optional<EntityContinuation> fromQuery(String nextPartitionKey, String nextRowKey) {
        if (nextPartitionKey == null) {
            if (nextRowKey != null) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                        "The " + NEXT_ROW_KEY + " continuation token was given without " + NEXT_PARTITION_KEY + ".");
            }
            return Optional.empty();
        }
        String partitionKey = key(nextPartitionKey, NEXT_PARTITION_KEY);
        String rowKey = nextRowKey == null ? "" : key(nextRowKey, NEXT_ROW_KEY);
        return Optional.of(new EntityContinuation(partitionKey, rowKey));
    }

    /** The {@code x-ms-continuation-NextPartitionKey} header value. */
    public String nextPartitionKeyToken() {
        return ContinuationToken.encode(partitionKey);
    }

    /** The {@code x-ms-continuation-NextRowKey} header value. */
    public String nextRowKeyToken() {
        return ContinuationToken.encode(rowKey);
    }

    /** The store key a scan of table {@code tableId} resumes at (see {@link ByteRange#startingAt}). */
    public byte[] resumeKey(long tableId) {
        return KeyCodec.resumeAt(tableId, partitionKey, rowKey);
    }

    /** The store key a descending scan of table {@code tableId} ends before (see {@link ByteRange#endingBefore}). */
    public byte[] resumeDescendingKey(long tableId) {
        return KeyCodec.resumeDescendingAt(tableId, partitionKey, rowKey);
    }

    private static String key(String token, String parameter) {
        String key = ContinuationToken.decode(token, parameter);
        if (!Keys.isValid(key)) {
            throw ContinuationToken.malformed(parameter);
        }
        return key;
    }
}
