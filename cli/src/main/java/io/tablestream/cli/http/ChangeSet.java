package io.tablestream.cli.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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

        final String method;

        Mode(String method) {
            this.method = method;
        }
    }

    private final String batchBoundary = "batch_" + UUID.randomUUID();
    private final String changeSetBoundary = "changeset_" + UUID.randomUUID();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
    private final List<String> rowKeys = new ArrayList<>();
    private final String partitionKey;

    public ChangeSet(String partitionKey) {
        this.partitionKey = partitionKey;
        ascii("--" + batchBoundary + "\r\nContent-Type: multipart/mixed; boundary=" + changeSetBoundary + "\r\n\r\n");
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
        rowKeys.add(rowKey);
        ascii("--" + changeSetBoundary + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + mode.method + " ");
        body.writeBytes(url.getBytes(StandardCharsets.UTF_8));
        ascii(" HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=nometadata\r\n"
                + "Prefer: return-no-content\r\nDataServiceVersion: 3.0\r\n\r\n");
        body.writeBytes(entityJson);
        body.writeBytes(CRLF);
    }

    String batchBoundary() {
        return batchBoundary;
    }

    /** The whole body, closed. */
    byte[] body() {
        ByteArrayOutputStream closed = new ByteArrayOutputStream(body.size() + 200);
        closed.writeBytes(body.toByteArray());
        closed.writeBytes(("--" + changeSetBoundary + "--\r\n--" + batchBoundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return closed.toByteArray();
    }

    private void ascii(String s) {
        body.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }
}
