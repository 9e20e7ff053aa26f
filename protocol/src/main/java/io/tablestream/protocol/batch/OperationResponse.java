package io.tablestream.protocol.batch;

import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.ETag;
import io.tablestream.core.odata.ErrorJsonWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * The response to one operation of a batch: a status, header fields and a body, written inside the
 * batch response as an {@code application/http} part.
 *
 * <p>The factories give each kind of outcome the header fields, in the order, that the Table service
 * writes for it (the REST reference's batch samples, and responses recorded from the service in the JS
 * SDKs' test sessions, 2014 to 2021). {@code Content-ID} is echoed first when the request gave one.
 * <ul>
 *   <li>insert, {@code Prefer: return-no-content}: 204; nosniff, no-cache, {@code Preference-Applied},
 *       {@code DataServiceVersion: 3.0;}, {@code Location}, {@code DataServiceId}, {@code ETag};</li>
 *   <li>insert returning the entity: 201; {@code DataServiceVersion: 3.0;}, {@code Content-Type},
 *       {@code Content-ID}, nosniff, no-cache, {@code Location}, {@code ETag}; the entity as body;</li>
 *   <li>update, merge, insert-or-replace, insert-or-merge: 204; nosniff, no-cache,
 *       {@code DataServiceVersion: 1.0;}, {@code ETag};</li>
 *   <li>delete: 204; nosniff, no-cache, {@code DataServiceVersion: 1.0;};</li>
 *   <li>a failed operation: its error status; nosniff, {@code DataServiceVersion: 3.0;},
 *       {@code Content-Type} of minimal-metadata JSON; the {@code odata.error} body whose message starts
 *       with the operation's index. No {@code Cache-Control} and no {@code x-ms-error-code} inside the part:
 *       the service's recent responses (2020, 2021) carry neither there, and the SDKs read the code from
 *       the body.</li>
 * </ul>
 */
public record OperationResponse(int status, HeaderFields headers, byte[] body) {
    static final String CONTENT_ID = "Content-ID";
    static final String ERROR_CONTENT_TYPE = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
    private static final String DATA_SERVICE_VERSION = "DataServiceVersion";
    private static final String VERSION_1 = "1.0;";
    private static final String VERSION_3 = "3.0;";

    public OperationResponse {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("Not an HTTP status: " + status);
        }
        Objects.requireNonNull(headers, "headers");
        body = Objects.requireNonNull(body, "body").clone();
    }

    public static OperationResponse of(int status, HeaderFields headers, byte[] body) {
        return new OperationResponse(status, headers, body);
    }

    /** An insert that was asked not to echo the entity ({@code Prefer: return-no-content}). */
    public static OperationResponse insertedWithoutContent(Optional<String> contentId, String entityUrl, ETag etag) {
        HeaderFields h = withContentId(contentId)
                .with("X-Content-Type-Options", "nosniff")
                .with("Cache-Control", "no-cache")
                .with("Preference-Applied", "return-no-content")
                .with(DATA_SERVICE_VERSION, VERSION_3)
                .with("Location", entityUrl)
                .with("DataServiceId", entityUrl)
                .with("ETag", etag.value());
        return new OperationResponse(204, h, new byte[0]);
    }

    /** An insert that echoes the stored entity, {@code entityJson} written in {@code contentType}. */
    public static OperationResponse inserted(Optional<String> contentId, String entityUrl, ETag etag,
                                             String contentType, byte[] entityJson) {
        HeaderFields h = HeaderFields.empty()
                .with(DATA_SERVICE_VERSION, VERSION_3)
                .with("Content-Type", contentType);
        if (contentId.isPresent()) {
            h = h.with(CONTENT_ID, contentId.get());
        }
        h = h.with("X-Content-Type-Options", "nosniff")
                .with("Cache-Control", "no-cache")
                .with("Location", entityUrl)
                .with("ETag", etag.value());
        return new OperationResponse(201, h, entityJson);
    }

    /** An update, merge, insert-or-replace or insert-or-merge: the entity's new ETag, no body. */
    public static OperationResponse updated(Optional<String> contentId, ETag etag) {
        HeaderFields h = withContentId(contentId)
                .with("X-Content-Type-Options", "nosniff")
                .with("Cache-Control", "no-cache")
                .with(DATA_SERVICE_VERSION, VERSION_1)
                .with("ETag", etag.value());
        return new OperationResponse(204, h, new byte[0]);
    }

    /** A delete. */
    public static OperationResponse deleted(Optional<String> contentId) {
        HeaderFields h = withContentId(contentId)
                .with("X-Content-Type-Options", "nosniff")
                .with("Cache-Control", "no-cache")
                .with(DATA_SERVICE_VERSION, VERSION_1);
        return new OperationResponse(204, h, new byte[0]);
    }

    /**
     * The failed operation of a change set: {@code error}'s status and its {@code odata.error} body. The
     * message starts with {@code error}'s {@link TableServiceException#failedIndex() index}, which the SDKs
     * parse to name the failed action, so attach it ({@code error.atIndex(i)}) before calling this.
     */
    public static OperationResponse failed(Optional<String> contentId, TableServiceException error,
                                           String requestId, Instant time) {
        ByteArrayOutputStream json = new ByteArrayOutputStream(256);
        try {
            ErrorJsonWriter.write(json, error, requestId, time);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        HeaderFields h = withContentId(contentId)
                .with("X-Content-Type-Options", "nosniff")
                .with(DATA_SERVICE_VERSION, VERSION_3)
                .with("Content-Type", ERROR_CONTENT_TYPE);
        return new OperationResponse(error.httpStatus(), h, json.toByteArray());
    }

    /** The answer to a lone query: the entity, written in {@code contentType}. */
    public static OperationResponse queried(ETag etag, String contentType, byte[] entityJson) {
        HeaderFields h = HeaderFields.empty()
                .with(DATA_SERVICE_VERSION, VERSION_3)
                .with("Content-Type", contentType)
                .with("X-Content-Type-Options", "nosniff")
                .with("Cache-Control", "no-cache")
                .with("ETag", etag.value());
        return new OperationResponse(200, h, entityJson);
    }

    private static HeaderFields withContentId(Optional<String> contentId) {
        return contentId.map(id -> HeaderFields.empty().with(CONTENT_ID, id)).orElse(HeaderFields.empty());
    }

    /** A copy of the body. */
    @Override
    public byte[] body() {
        return body.clone();
    }

    byte[] bodyView() {
        return body;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof OperationResponse)) {
            return false;
        }
        OperationResponse other = (OperationResponse) o;
        return status == other.status && headers.equals(other.headers) && Arrays.equals(body, other.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(status, headers, Arrays.hashCode(body));
    }

    @Override
    public String toString() {
        return "OperationResponse[" + status + ", " + headers + ", " + body.length + " body bytes]";
    }
}
