package io.tablestream.core.continuation;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.rules.Keys;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.IndexPosition;
import io.tablestream.core.storekey.KeyCodec;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a paged Query Entities resumes: the first key not yet returned, inclusive. Sent as the
 * {@code x-ms-continuation-NextPartitionKey} and {@code x-ms-continuation-NextRowKey} headers and
 * passed back as the {@code NextPartitionKey} and {@code NextRowKey} query parameters, each an
 * opaque token (see {@link #nextPartitionKeyToken()}).
 *
 * <p>A query ordered by an indexed property resumes at a place in the index's order instead: the
 * next entity's value of the property and its keys ({@code position}). Its NextPartitionKey token
 * carries that place (version 2 of {@link ContinuationToken}), its NextRowKey token the next
 * entity's RowKey as usual.
 *
 * @param position the place in an index's order, or null for a query in key order
 */
public record EntityContinuation(String partitionKey, String rowKey, IndexPosition position) {
    public static final String NEXT_PARTITION_KEY = "NextPartitionKey";
    public static final String NEXT_ROW_KEY = "NextRowKey";

    /** @throws IllegalArgumentException when either is not a valid key, or the position is of other keys */
    public EntityContinuation {
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(rowKey, "rowKey");
        if (!Keys.isValid(partitionKey) || !Keys.isValid(rowKey)) {
            throw new IllegalArgumentException("a continuation must be a valid key");
        }
        if (position != null) {
            EntityKey k = position.key(0);
            if (!k.partitionKey().equals(partitionKey) || !k.rowKey().equals(rowKey)) {
                throw new IllegalArgumentException("a position of other keys");
            }
        }
    }

    /** A continuation of a query in key order. */
    public EntityContinuation(String partitionKey, String rowKey) {
        this(partitionKey, rowKey, null);
    }

    /** Resume at (and including) this place in an index's order. */
    public static EntityContinuation at(IndexPosition position) {
        EntityKey k = position.key(0);
        return new EntityContinuation(k.partitionKey(), k.rowKey(), position);
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
        if (ContinuationToken.isPosition(nextPartitionKey)) {
            IndexPosition position;
            try {
                position = IndexPosition.parse(ContinuationToken.decodePosition(nextPartitionKey, NEXT_PARTITION_KEY));
            } catch (IllegalArgumentException e) {
                throw ContinuationToken.malformed(NEXT_PARTITION_KEY);
            }
            EntityContinuation at = at(position);
            if (nextRowKey != null && !key(nextRowKey, NEXT_ROW_KEY).equals(at.rowKey())) {
                throw ContinuationToken.malformed(NEXT_ROW_KEY);
            }
            return Optional.of(at);
        }
        String partitionKey = key(nextPartitionKey, NEXT_PARTITION_KEY);
        String rowKey = nextRowKey == null ? "" : key(nextRowKey, NEXT_ROW_KEY);
        return Optional.of(new EntityContinuation(partitionKey, rowKey));
    }

    /**
     * The {@code x-ms-continuation-NextPartitionKey} header value.
     *
     * @throws TableServiceException {@code InvalidQueryParameterValue} for a place in an index's
     *     order too long for a header (a value of the property of thousands of characters)
     */
    public String nextPartitionKeyToken() {
        if (position == null) {
            return ContinuationToken.encode(partitionKey);
        }
        byte[] bytes = position.bytes();
        if (bytes.length > ContinuationToken.MAX_POSITION_BYTES) {
            throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE, "The continuation of this page"
                    + " would carry " + bytes.length + " bytes of the ordering property's value and the keys; at most "
                    + ContinuationToken.MAX_POSITION_BYTES + " fit in a continuation: order by a property whose values"
                    + " are shorter.");
        }
        return ContinuationToken.encodePosition(bytes);
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
