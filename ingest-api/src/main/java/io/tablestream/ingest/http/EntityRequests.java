package io.tablestream.ingest.http;

import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.ETag;
import io.tablestream.protocol.http.Operation;
import java.util.List;
import java.util.regex.Pattern;

/** How a write operation of the protocol becomes an entity operation of a command. */
final class EntityRequests {
    /** {@code *}, or an entity tag: optionally weak, then a quoted string. */
    private static final Pattern ETAG = Pattern.compile("\\*|(W/)?\"[^\"\\r\\n]*\"");

    private EntityRequests() {
    }

    static EntityOperation.Type typeOf(Operation operation) {
        return switch (operation) {
            case INSERT_ENTITY -> EntityOperation.Type.INSERT;
            case UPDATE_ENTITY -> EntityOperation.Type.REPLACE;
            case MERGE_ENTITY -> EntityOperation.Type.MERGE;
            case INSERT_OR_REPLACE_ENTITY -> EntityOperation.Type.INSERT_OR_REPLACE;
            case INSERT_OR_MERGE_ENTITY -> EntityOperation.Type.INSERT_OR_MERGE;
            case DELETE_ENTITY -> EntityOperation.Type.DELETE;
            default -> throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "The operation " + operation + " does not write an entity.");
        };
    }

    /**
     * The If-Match condition an operation carries: required for delete (the service refuses a delete
     * without one), present for update and merge (else they would be upserts), well-formed and given
     * once; a datetime tag is carried in its canonical spelling ({@link ETag#canonicalCondition}).
     * {@code If-None-Match} has no meaning for these writes and is refused, as the service does.
     *
     * @param ifMatch every value of the If-Match header (empty when absent)
     * @param ifNoneMatch whether the request has an If-None-Match header
     */
    static String condition(EntityOperation.Type type, List<String> ifMatch, boolean ifNoneMatch) {
        if (ifNoneMatch && type != EntityOperation.Type.INSERT) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "If-None-Match HTTP header cannot be specified for update, merge or delete operations.");
        }
        if (ifMatch.isEmpty()) {
            if (type == EntityOperation.Type.DELETE) {
                throw TableServiceException.of(ErrorCode.MISSING_REQUIRED_HEADER,
                        "Delete Entity needs an If-Match header ('*' or the entity's ETag).");
            }
            return null;
        }
        if (ifMatch.size() > 1) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "The If-Match header is given more than once; give exactly one ETag value.");
        }
        String value = ETag.canonicalCondition(ifMatch.get(0).strip());
        if (!ETAG.matcher(value).matches()) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "The ETag value in the If-Match header is not valid.");
        }
        return value;
    }
}
