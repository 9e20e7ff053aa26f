package io.tablestream.query.feed;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a reader of a table's change feed is: for each partition of the changes topic the feed
 * reads, the offset of the next record to examine. The topic holds committed changes only, in the
 * order each partition's task applied them, and offsets never change, so a cursor resumes exactly:
 * no event is skipped or repeated, across reconnects, instances and restarts.
 *
 * <p>The token a client sees is opaque: {@code base64url("1;<tableId>;<p>:<offset>,…")}, a
 * partition read past its table's {@code TABLE_DELETED} change written {@code <p>:<offset>:e}. It
 * names its table's id, so a cursor of a deleted table never reads a table created later under the
 * name.
 *
 * @param tableId the table the feed is of
 * @param offsets partition of the changes topic → next offset to examine
 * @param ended the partitions read past the table's deletion (nothing more of the table can come
 *     there); when all are, the feed has delivered its {@code TableDeleted} event and is over
 */
public record FeedCursor(long tableId, SortedMap<Integer, Long> offsets, SortedSet<Integer> ended) {
    private static final String VERSION = "1";
    private static final String ENDED = ":e";

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
        if (!offsets.keySet().containsAll(ended)) {
            throw new IllegalArgumentException("an ended partition the cursor does not read");
        }
        ended = Collections.unmodifiableSortedSet(new TreeSet<>(ended));
    }

    public static FeedCursor of(long tableId, Map<Integer, Long> offsets) {
        return new FeedCursor(tableId, new TreeMap<>(offsets), new TreeSet<>());
    }

    /** Whether every partition is read past the table's deletion: the feed is over. */
    public boolean isOver() {
        return ended.equals(offsets.keySet());
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
            if (ended.contains(e.getKey())) {
                s.append(ENDED);
            }
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
            TreeSet<Integer> ended = new TreeSet<>();
            for (String entry : parts[2].split(",", -1)) {
                int colon = entry.indexOf(':');
                if (colon < 0) {
                    throw invalid();
                }
                int partition = Integer.parseInt(entry.substring(0, colon));
                String offset = entry.substring(colon + 1);
                if (offset.endsWith(ENDED)) {
                    offset = offset.substring(0, offset.length() - ENDED.length());
                    ended.add(partition);
                }
                if (offsets.put(partition, Long.parseLong(offset)) != null) {
                    throw invalid();
                }
            }
            return new FeedCursor(tableId, offsets, ended);
        } catch (IllegalArgumentException e) { // bad base64, a number that does not parse, a negative one
            throw invalid();
        }
    }

    /** This cursor with {@code partition} moved to {@code next}. */
    FeedCursor with(Map<Integer, Long> moved, Set<Integer> nowEnded) {
        TreeMap<Integer, Long> next = new TreeMap<>(offsets);
        next.putAll(moved);
        TreeSet<Integer> allEnded = new TreeSet<>(ended);
        allEnded.addAll(nowEnded);
        return new FeedCursor(tableId, next, allEnded);
    }

    private static TableServiceException invalid() {
        return TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                "The cursor is not one the change feed returned.");
    }
}
