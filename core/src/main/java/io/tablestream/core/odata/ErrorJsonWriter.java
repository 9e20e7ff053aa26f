package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Writes the service's JSON error body, the same at every metadata level:
 * {@code {"odata.error":{"code":"EntityNotFound","message":{"lang":"en-US","value":"<message>\nRequestId:<id>\nTime:<time>"}}}}
 * with the time in UTC with seven fractional digits (as in the service's documented example).
 *
 * <p>For an operation inside a batch change set, the value starts with the operation's index and a colon,
 * {@code 1:The specified entity already exists.\nRequestId:...}, as the service writes it (e.g.
 * {@code 0:Bad Request - Error in query syntax.} in Azure/azure-storage-net#386). The Java SDK takes the
 * failed operation from exactly this: the integer before the first {@code :} of the value.
 */
public final class ErrorJsonWriter {
    static final String LANGUAGE = "en-US";

    private ErrorJsonWriter() {
    }

    /** The body for {@code error}, its batch index (if any) included. */
    public static void write(OutputStream out, TableServiceException error, String requestId, Instant time)
            throws IOException {
        write(out, error.errorCode(), error.getMessage(), error.failedIndex(), requestId, time);
    }

    public static void write(OutputStream out, ErrorCode code, String message, OptionalInt failedIndex,
                             String requestId, Instant time) throws IOException {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(time, "time");
        try (JsonGenerator g = JsonSupport.generator(out)) {
            g.writeStartObject();
            g.writeObjectFieldStart("odata.error");
            g.writeStringField("code", code.code());
            g.writeObjectFieldStart("message");
            g.writeStringField("lang", LANGUAGE);
            g.writeStringField("value", messageValue(message == null ? code.defaultMessage() : message,
                    failedIndex, requestId, time));
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    static String messageValue(String message, OptionalInt failedIndex, String requestId, Instant time) {
        StringBuilder sb = new StringBuilder(message.length() + 80);
        if (failedIndex.isPresent()) {
            sb.append(failedIndex.getAsInt()).append(':');
        }
        return sb.append(message)
                .append("\nRequestId:").append(requestId)
                .append("\nTime:").append(EdmDateTime.of(time).toIso())
                .toString();
    }
}
