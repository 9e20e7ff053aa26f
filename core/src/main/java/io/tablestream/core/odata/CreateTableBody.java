package io.tablestream.core.odata;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A Create Table request body, {@code {"TableName":"name"}}, parsed but not validated (the name is
 * checked by {@link io.tablestream.core.model.TableName#of}).
 *
 * @param tableName the requested name as sent, {@code null} when the body has none
 * @param ttlInSeconds the table's default time-to-live, our {@code "TTLInSeconds"} extension (an
 *                     {@code Edm.Int32} JSON number); empty when not given or null. Its range is not
 *                     checked here.
 * @param historyRetentionInSeconds how long the table keeps every version of its entities, our
 *                     {@code "HistoryRetentionInSeconds"} extension (an {@code Edm.Int32} JSON number);
 *                     empty when not given or null (no history). Its range is not checked here.
 */
public record CreateTableBody(String tableName, OptionalInt ttlInSeconds, OptionalInt historyRetentionInSeconds) {

    public CreateTableBody {
        Objects.requireNonNull(ttlInSeconds, "ttlInSeconds");
        Objects.requireNonNull(historyRetentionInSeconds, "historyRetentionInSeconds");
    }

    public CreateTableBody(String tableName, OptionalInt ttlInSeconds) {
        this(tableName, ttlInSeconds, OptionalInt.empty());
    }
}
