package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.error.ErrorCode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;

/**
 * Writes the answer to a bulk write (a Tablestream extension):
 * {@code {"Entities":<accepted>,"Failed":[{"Line":n,"Code":"…","Message":"…"}, …]}}, the failed
 * lines in line order, numbered from 1 as the body's lines are.
 */
public final class BulkResultJsonWriter {
    /** One line of the body that was not written, and why. */
    public record FailedLine(int line, ErrorCode code, String message) {
        public FailedLine {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
        }
    }

    private BulkResultJsonWriter() {
    }

    public static void write(OutputStream out, long accepted, List<FailedLine> failed) throws IOException {
        try (JsonGenerator g = JsonSupport.generator(out)) {
            g.writeStartObject();
            g.writeNumberField("Entities", accepted);
            g.writeArrayFieldStart("Failed");
            for (FailedLine f : failed) {
                g.writeStartObject();
                g.writeNumberField("Line", f.line());
                g.writeStringField("Code", f.code().code());
                g.writeStringField("Message", f.message());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }
}
