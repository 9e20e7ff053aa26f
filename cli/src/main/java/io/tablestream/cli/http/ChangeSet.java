package io.tablestream.cli.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * An entity group transaction being built: one {@code $batch} request holding one change set of
 * up to 100 operations on entities of one PartitionKey, each {@code PUT} (Insert Or Replace) or
 * {@code MERGE} (Insert Or Merge, sent as PATCH without If-Match), its body an entity's JSON as given.
 */
public final class ChangeSet {
    /** What Azure allows in one change set. */
    public static final int MAX_OPERATIONS = 100;
    /** Azure's limit on a {@code $batch} body is 4 MiB; this leaves room for the multipart framing. */
    public static final int MAX_BODY_BYTES = 3_900_000;
    private static final byte[] CRLF = {'\r', '\n'};

    /** How each entity is written. */
    public enum Mode {
        /** Insert Or Replace: the entity becomes exactly what is imported. */
        REPLACE("PUT"),
        /** Insert Or Merge: imported properties are added to (or overwrite those of) an existing entity. */
        MERGE("PATCH");

        final byte[] methodAndSpace;

        Mode(String method) {
            this.methodAndSpace = (method + " ").getBytes(StandardCharsets.US_ASCII);
        }
    }

    private static final byte[] AFTER_URL = ascii(" HTTP/1.1\r\nContent-Type: application/json\r\n"
            + "Accept: application/json;odata=nometadata\r\nPrefer: return-no-content\r\nDataServiceVersion: 3.0\r\n\r\n");

    private final String batchBoundary = "batch_" + UUID.randomUUID();
    private final String changeSetBoundary = "changeset_" + UUID.randomUUID();
    /** What starts each operation: the change set's boundary and the part's headers. */
    private final byte[] operationStart = ascii("--" + changeSetBoundary
            + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n");
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(128 * 1024);
    private final Set<String> rowKeys = new HashSet<>();
    private final String partitionKey;
    private boolean closed;

    public ChangeSet(String partitionKey) {
        this.partitionKey = partitionKey;
        body.writeBytes(ascii("--" + batchBoundary + "\r\nContent-Type: multipart/mixed; boundary=" + changeSetBoundary
                + "\r\n\r\n"));
    }

    public String partitionKey() {
        return partitionKey;
    }

    public int size() {
        return rowKeys.size();
    }

    /** Whether an entity of {@code bytes} more still fits (count and size). */
    public boolean fits(int bytes) {
        return rowKeys.size() < MAX_OPERATIONS && body.size() + bytes + 512 < MAX_BODY_BYTES;
    }

    public boolean contains(String rowKey) {
        return rowKeys.contains(rowKey);
    }

    /** Adds the operation writing {@code entityJson} (the entity's JSON object) at {@code url}. */
    public void add(Mode mode, String url, String rowKey, byte[] entityJson) {
        if (closed) {
            throw new IllegalStateException("the change set was sent");
        }
        rowKeys.add(rowKey);
        body.writeBytes(operationStart);
        body.writeBytes(mode.methodAndSpace);
        body.writeBytes(url.getBytes(StandardCharsets.UTF_8));
        body.writeBytes(AFTER_URL);
        body.writeBytes(entityJson);
        body.writeBytes(CRLF);
    }

    String batchBoundary() {
        return batchBoundary;
    }

    /** The whole body, closed (no operation can be added after). */
    byte[] body() {
        if (!closed) {
            body.writeBytes(ascii("--" + changeSetBoundary + "--\r\n--" + batchBoundary + "--\r\n"));
            closed = true;
        }
        return body.toByteArray();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
