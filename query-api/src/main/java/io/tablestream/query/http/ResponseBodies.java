package io.tablestream.query.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** A response body written to bytes by a writer that may throw {@link IOException}. */
final class ResponseBodies {
    private ResponseBodies() {
    }

    @FunctionalInterface
    interface BodyWriter {
        void write(ByteArrayOutputStream out) throws IOException;
    }

    static byte[] write(BodyWriter writer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
