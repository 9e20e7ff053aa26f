package io.tablestream.query.feed;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a reader of a table's change feed is: for each partition of the changes topic the feed
 * reads, the offset of the next record to examine. The topic holds committed changes only, in the
 * order each partition's task applied them, and offsets never change, so a cursor resumes exactly:
 * no event is skipped or repeated, across reconnects, instances and restarts.
 *
 * <p>The token a client sees is opaque: {@code base64url("1;<tableId>;<p>:<offset>,…")}. It names
 * its table's id, so a cursor of a deleted table never reads a table created later under the name.
 *
 * @param tableId the table the feed is of
 * @param offsets partition of the changes topic → next offset to examine
 */
public record FeedCursor(long tableId, SortedMap<Integer, Long> offsets) {
    private static final String VERSION = "1";

    public FeedCursor {
        if (offsets.isEmpty()) {
            throw new IllegalArgumentException("a cursor reads at least one partition");
        }
        offsets.forEach((p, o) -> {
            if (p < 0 || o < 0) {
                throw new IllegalArgumentException("negative partition or offset: " + p + ":" + o);
            }
        });
        offsets = Collections.unmodifiableSortedMap(new TreeMap<>(offsets));
    }

    public static FeedCursor of(long tableId, Map<Integer, Long> offsets) {
        return new FeedCursor(tableId, new TreeMap<>(offsets));
    }

    /** The opaque token of this cursor. */
    public String token() {
        StringBuilder s = new StringBuilder(VERSION).append(';').append(tableId).append(';');
        boolean first = true;
        for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
            if (!first) {
                s.append(',');
            }
            first = false;
            s.append(e.getKey()).append(':').append(e.getValue());
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.toString().getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The cursor a token names.
     *
     * @throws TableServiceException 400 InvalidQueryParameterValue for a token this service did not make
     */
    public static FeedCursor parse(String token) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.US_ASCII);
            String[] parts = text.split(";", -1);
            if (parts.length != 3 || !parts[0].equals(VERSION) || parts[2].isEmpty()) {
                throw invalid();
            }
            long tableId = Long.parseLong(parts[1]);
            TreeMap<Integer, Long> offsets = new TreeMap<>();
            for (String entry : parts[2].split(",", -1)) {
                int colon = entry.indexOf(':');
                if (colon < 0 || offsets.put(Integer.parseInt(entry.substring(0, colon)),
                        Long.parseLong(entry.substring(colon + 1))) != null) {
                    throw invalid();
                }
            }
            return new FeedCursor(tableId, offsets);
        } catch (IllegalArgumentException e) { // bad base64, a number that does not parse, a negative one
            throw invalid();
        }
    }

    /** This cursor with {@code partition} moved to {@code next}. */
    FeedCursor with(Map<Integer, Long> moved) {
        TreeMap<Integer, Long> next = new TreeMap<>(offsets);
        next.putAll(moved);
        return new FeedCursor(tableId, next);
    }

    private static TableServiceException invalid() {
        return TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                "The cursor is not one the change feed returned.");
    }
}
