package io.tablestream.protocol.http;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.Locale;

/**
 * The {@code Content-Type} of a request that carries an entity or a table: JSON, as the service
 * reads it since it stopped reading Atom. A missing one is {@code InvalidInput} (the service's
 * "Content-Type header value missing."), Atom or XML is {@code AtomFormatNotSupported}, anything else
 * {@code MediaTypeNotSupported}. Parameters ({@code odata}, {@code charset}, ...) do not matter.
 */
public final class RequestContentType {
    private RequestContentType() {
    }

    public static void requireJson(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "Content-Type header value missing.");
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip()
                .toLowerCase(Locale.ROOT);
        switch (type) {
            case "application/json":
                return;
            case "application/atom+xml":
            case "application/xml":
                throw TableServiceException.of(ErrorCode.ATOM_FORMAT_NOT_SUPPORTED,
                        "The Atom format is not supported; send the body as application/json.");
            default:
                throw TableServiceException.of(ErrorCode.MEDIA_TYPE_NOT_SUPPORTED,
                        "The Content-Type '" + shorten(type) + "' is not supported; send the body as application/json.");
        }
    }

    /**
     * The {@code Content-Type} of a bulk write (an extension): newline-delimited JSON,
     * {@value #NDJSON}. A missing one is {@code InvalidInput}, another {@code MediaTypeNotSupported}.
     */
    public static void requireNdjson(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "Content-Type header value missing.");
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip()
                .toLowerCase(Locale.ROOT);
        if (!type.equals(NDJSON)) {
            throw TableServiceException.of(ErrorCode.MEDIA_TYPE_NOT_SUPPORTED,
                    "The Content-Type '" + shorten(type) + "' is not supported; send the entities as " + NDJSON
                            + ", one entity per line.");
        }
    }

    /** The media type of a bulk write's body: one JSON entity per line. */
    public static final String NDJSON = "application/x-ndjson";

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "…";
    }
}
