package io.tablestream.core.continuation;

import io.tablestream.core.model.TableName;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a paged Query Tables resumes: the first table name not yet returned, inclusive. Sent as
 * {@code x-ms-continuation-NextTableName} and passed back as the {@code NextTableName} query
 * parameter, an opaque token.
 */
public record TableContinuation(TableName tableName) {
    public static final String NEXT_TABLE_NAME = "NextTableName";

    public TableContinuation {
        Objects.requireNonNull(tableName, "tableName");
    }

    public static TableContinuation at(TableName tableName) {
        return new TableContinuation(tableName);
    }

    /**
     * The continuation a request carries, empty when it has none.
     *
     * @throws io.tablestream.core.error.TableServiceException {@code InvalidInput} (400) when the
     *     token is malformed, empty, or does not carry a valid table name
     */
    public static Optional<TableContinuation> fromQuery(String nextTableName) {
        if (nextTableName == null) {
            return Optional.empty();
        }
        String name = ContinuationToken.decode(nextTableName, NEXT_TABLE_NAME);
        if (!TableName.isValid(name)) {
            throw ContinuationToken.malformed(NEXT_TABLE_NAME);
        }
        return Optional.of(new TableContinuation(new TableName(name)));
    }

    /** The {@code x-ms-continuation-NextTableName} header value. */
    public String nextTableNameToken() {
        return ContinuationToken.encode(tableName.value());
    }
}
