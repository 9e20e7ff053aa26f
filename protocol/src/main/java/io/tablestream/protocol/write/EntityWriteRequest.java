package io.tablestream.protocol.write;

import io.javalin.http.Context;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.ETag;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.protocol.batch.BatchOperation;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.Locations;
import io.tablestream.protocol.http.OperationResolver;
import io.tablestream.protocol.http.Preferences;
import io.tablestream.protocol.http.RequestContentType;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import java.net.URI;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Insert, Update (replace), Merge, Insert-or-Replace, Insert-or-Merge or Delete of one entity, as the
 * client wrote it: made by {@link #fromRequest} for a request of its own and by {@link #fromChangeSet} for
 * an operation of a change set, and read the same way for both. Headers and body are kept as sent and
 * interpreted on demand ({@link #type}, {@link #condition}, {@link #preferences}, {@link #responseLevel},
 * {@link #body}), so a write refused for another reason first (its table does not exist) never reads them.
 *
 * @param operation    the write operation (PUT and MERGE without {@code If-Match} are the upserts)
 * @param table        the table name the URL names, as written
 * @param partitionKey the URL's PartitionKey; null when the URL names the table's entities (an insert)
 * @param rowKey       the URL's RowKey; null likewise
 * @param ifMatch      every value of {@code If-Match}, in order (empty when absent)
 * @param ifNoneMatch  whether an {@code If-None-Match} header is present
 * @param prefer       every value of {@code Prefer}, in order
 * @param format       the {@code $format} query parameter, or null
 * @param accept       the {@code Accept} header, or null
 * @param body         the body bytes, read when asked for
 */
public record EntityWriteRequest(Operation operation, String table, String partitionKey, String rowKey,
                                 List<String> ifMatch, boolean ifNoneMatch, List<String> prefer, String format,
                                 String accept, Supplier<byte[]> body) {
    /** {@code *}, or an entity tag: optionally weak, then a quoted string. */
    private static final Pattern ETAG = Pattern.compile("\\*|(W/)?\"[^\"\\r\\n]*\"");
    /** What an operation of a change set is answered in when it names no {@code Accept}. */
    static final String CHANGE_SET_DEFAULT_ACCEPT = "application/json;odata=minimalmetadata";

    public EntityWriteRequest {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(table, "table");
        ifMatch = List.copyOf(ifMatch);
        prefer = List.copyOf(prefer);
        Objects.requireNonNull(body, "body");
    }

    /** A write sent as a request of its own, whose operation and resource the pipeline resolved. */
    public static EntityWriteRequest fromRequest(RequestContext request, Context http) {
        return of(request.operation(), request.resource(),
                Collections.list(http.req().getHeaders(Headers.IF_MATCH)), http.header(Headers.IF_NONE_MATCH) != null,
                Collections.list(http.req().getHeaders(Headers.PREFER)), request.queryParam("$format"),
                http.header("Accept"), http::bodyAsBytes);
    }

    /**
     * Operation {@code op} of a change set sent to {@code account}: its URL (absolute, an absolute path,
     * or relative to the account) must address an entity or a table's entities of that account, and its
     * method and {@code If-Match} decide the operation as for a request of its own. As for a request of
     * its own, a write to the secondary location is refused and a body must be JSON. A response asked
     * of it without an {@code Accept} is in minimal metadata.
     */
    public static EntityWriteRequest fromChangeSet(String account, BatchOperation op) {
        ResourcePath.Target target = targetOf(account, op.url());
        ResourcePath resource = target.resource();
        if (!(resource instanceof ResourcePath.EntityItem) && !(resource instanceof ResourcePath.EntityCollection)) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "An operation of a change set addresses an entity or a table's entities.");
        }
        List<String> ifMatch = op.headers().all(Headers.IF_MATCH);
        Operation operation = OperationResolver.resolve(op.method().name(), List.of(), resource, null, null,
                !ifMatch.isEmpty());
        Locations.check(operation, target.secondary());
        if (operation.takesJsonBody()) {
            RequestContentType.requireJson(op.headers().first("Content-Type").orElse(null));
        }
        return of(operation, resource, ifMatch, op.headers().contains(Headers.IF_NONE_MATCH),
                op.headers().all(Headers.PREFER), null, op.headers().first("Accept").orElse(CHANGE_SET_DEFAULT_ACCEPT),
                op::body);
    }

    private static EntityWriteRequest of(Operation operation, ResourcePath resource, List<String> ifMatch,
                                         boolean ifNoneMatch, List<String> prefer, String format, String accept,
                                         Supplier<byte[]> body) {
        if (resource instanceof ResourcePath.EntityItem item) {
            return new EntityWriteRequest(operation, item.table(), item.partitionKey(), item.rowKey(), ifMatch,
                    ifNoneMatch, prefer, format, accept, body);
        }
        if (resource instanceof ResourcePath.EntityCollection collection) {
            return new EntityWriteRequest(operation, collection.table(), null, null, ifMatch, ifNoneMatch, prefer,
                    format, accept, body);
        }
        throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The request does not address an entity.");
    }

    /** The path an operation's URL addresses: absolute, an absolute path, or relative to the account. */
    static ResourcePath.Target targetOf(String account, String url) {
        String path;
        try {
            URI uri = URI.create(url.strip());
            String raw = uri.getRawPath();
            if (raw == null) {
                throw new IllegalArgumentException("no path");
            }
            path = uri.isAbsolute() || raw.startsWith("/") ? raw : "/" + account + "/" + raw;
        } catch (IllegalArgumentException e) {
            throw TableServiceException.of(ErrorCode.INVALID_URI, "An operation of the change set has an invalid URL.");
        }
        ResourcePath.Target target = ResourcePath.parse(path);
        if (!target.account().equals(account)) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "An operation of the change set addresses another account.");
        }
        return target;
    }

    /** The entity operation this write is; InvalidInput for an operation that writes no entity. */
    public EntityOperation.Type type() {
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
     * The If-Match condition the write carries: required for delete (the service refuses a delete
     * without one), present for update and merge (else they would be upserts), well-formed and given
     * once; a datetime tag is carried in its canonical spelling ({@link ETag#canonicalCondition}).
     * {@code If-None-Match} has no meaning for these writes and is refused, as the service does.
     *
     * @return the condition, or null when there is none
     */
    public String condition() {
        EntityOperation.Type type = type();
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

    /** The {@code Prefer}ences: return-content or return-no-content, respond-async. */
    public Preferences preferences() {
        return Preferences.parse(prefer);
    }

    /** Whether the answer carries the written entity: an insert's, unless the client prefers no content. */
    public boolean returnsContent() {
        return type() == EntityOperation.Type.INSERT && preferences().returnContentOr(true);
    }

    /** The metadata level of a response body, from {@code $format} and {@code Accept}. */
    public MetadataLevel responseLevel() {
        return MetadataLevel.negotiate(format, accept);
    }

    /** The body bytes (read on each call: ask once). */
    public byte[] bodyBytes() {
        return body.get();
    }
}
