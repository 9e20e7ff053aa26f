package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The one Jackson factory the codec uses (thread-safe, configured once), with the sanity limits the
 * readers rely on whatever the HTTP layer already capped.
 */
final class JsonSupport {
    /** Bytes of one JSON request body. A 1 MiB entity needs at most about 6 MiB even with every character escaped. */
    static final long MAX_DOCUMENT_BYTES = 8L * 1024 * 1024;
    /** Objects/arrays inside one another. Entity bodies are flat; this only bounds what is skipped. */
    static final int MAX_NESTING_DEPTH = 32;
    /** Characters of one JSON number. */
    static final int MAX_NUMBER_LENGTH = 1000;

    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxDocumentLength(MAX_DOCUMENT_BYTES)
                    .maxNestingDepth(MAX_NESTING_DEPTH)
                    .maxNumberLength(MAX_NUMBER_LENGTH)
                    .build())
            .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            // A response cut short by a failure must not be completed into valid-looking JSON on close.
            .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT)
            // Shortest representation that reads back to the same double (Schubfach).
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            // Characters outside the BMP as 4-byte UTF-8, not as escaped surrogate pairs (lone surrogates stay escaped).
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            // Names come from clients: canonicalise them per factory, never into the JVM's intern pool.
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            .build();

    private JsonSupport() {
    }

    /** A UTF-8 generator on {@code out}; closing it flushes but leaves {@code out} open. */
    static JsonGenerator generator(OutputStream out) throws IOException {
        return FACTORY.createGenerator(out);
    }
}
