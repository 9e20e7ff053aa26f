package io.tablestream.client;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * An entity group transaction being built: one {@code $batch} request holding one change set of
 * up to 100 operations on entities of one PartitionKey, each {@code PUT} (Insert Or Replace) or
 * {@code MERGE} (Insert Or Merge, sent as PATCH without If-Match), its body an entity's JSON as given.
 * The multipart body is the protocol's for any change set: {@link #add(String, String, String, String, byte[])}
 * takes any method and If-Match (the benchmarks' lean client builds its batches and cross-partition
 * transactions with it).
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

    /** What follows an operation's URL: the HTTP version and the operation's headers. */
    private static final String AFTER_URL_HEADERS = " HTTP/1.1\r\nContent-Type: application/json\r\n"
            + "Accept: application/json;odata=nometadata\r\nPrefer: return-no-content\r\nDataServiceVersion: 3.0\r\n";
    private static final byte[] AFTER_URL = ascii(AFTER_URL_HEADERS + "\r\n");

    private final String batchBoundary = "batch_" + UUID.randomUUID();
    private final String changeSetBoundary = "changeset_" + UUID.randomUUID();
    /** What starts each operation: the change set's boundary and the part's headers. */
    private final byte[] operationStart = ascii("--" + changeSetBoundary
            + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n");
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(128 * 1024);
    private final Set<String> rowKeys = new HashSet<>();
    private int operations;
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
        return operations;
    }

    /** Whether an entity of {@code bytes} more still fits (count and size). */
    public boolean fits(int bytes) {
        return operations < MAX_OPERATIONS && body.size() + bytes + 512 < MAX_BODY_BYTES;
    }

    public boolean contains(String rowKey) {
        return rowKeys.contains(rowKey);
    }

    /** Adds the operation writing {@code entityJson} (the entity's JSON object) at {@code url}. */
    public void add(Mode mode, String url, String rowKey, byte[] entityJson) {
        add(mode.method, url, rowKey, null, entityJson);
    }

    /**
     * Adds an operation: {@code method} ({@code POST} to a table's URL inserts; {@code PUT} and
     * {@code PATCH} to an entity's URL replace and merge, or insert when {@code ifMatch} is null)
     * writing {@code entityJson}, with {@code If-Match: ifMatch} unless it is null.
     */
    public void add(String method, String url, String rowKey, String ifMatch, byte[] entityJson) {
        if (closed) {
            throw new IllegalStateException("the change set was sent");
        }
        rowKeys.add(rowKey);
        operations++;
        body.writeBytes(operationStart);
        body.writeBytes(ascii(method + " "));
        body.writeBytes(url.getBytes(StandardCharsets.UTF_8));
        body.writeBytes(ifMatch == null ? AFTER_URL : ascii(AFTER_URL_HEADERS + "If-Match: " + ifMatch + "\r\n\r\n"));
        body.writeBytes(entityJson);
        body.writeBytes(CRLF);
    }

    /** The boundary of the {@code $batch} body: the request's Content-Type is {@code multipart/mixed; boundary=} it. */
    public String batchBoundary() {
        return batchBoundary;
    }

    /** The whole body, closed (no operation can be added after). */
    public byte[] body() {
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
