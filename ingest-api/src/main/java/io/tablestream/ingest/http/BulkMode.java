package io.tablestream.ingest.http;

import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.protocol.request.Operation;
import java.util.Locale;

/**
 * How a bulk write writes each of its entities ({@code ?mode=replace|merge|insert}, replace by
 * default): as Insert Or Replace Entity, Insert Or Merge Entity or Insert Entity would, and
 * authorized as that operation is for each entity.
 */
enum BulkMode {
    REPLACE(EntityOperation.Type.INSERT_OR_REPLACE, Operation.INSERT_OR_REPLACE_ENTITY),
    MERGE(EntityOperation.Type.INSERT_OR_MERGE, Operation.INSERT_OR_MERGE_ENTITY),
    INSERT(EntityOperation.Type.INSERT, Operation.INSERT_ENTITY);

    /** The query parameter naming the mode. */
    static final String PARAMETER = "mode";

    private final EntityOperation.Type type;
    private final Operation operation;

    BulkMode(EntityOperation.Type type, Operation operation) {
        this.type = type;
        this.operation = operation;
    }

    /** The operation each entity's command carries. */
    EntityOperation.Type type() {
        return type;
    }

    /** The single-entity operation each entity is authorized as. */
    Operation operation() {
        return operation;
    }

    /** The mode {@code value} names; absent is {@link #REPLACE}. */
    static BulkMode parse(String value) {
        if (value == null) {
            return REPLACE;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "replace" -> REPLACE;
            case "merge" -> MERGE;
            case "insert" -> INSERT;
            default -> throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                    "The value of " + PARAMETER + " is replace, merge or insert.");
        };
    }
}
