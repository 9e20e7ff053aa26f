package io.tablestream.core.command;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where writes landed in the command log: for each, the partition and offset of its command. A
 * write's answer carries it in {@code x-ms-session-token}; a read that carries it back waits
 * (bounded) until the owning store has applied those offsets — read-your-writes, even after
 * async writes. Written {@code <partition>:<offset>}, several joined with commas.
 */
public record SessionToken(List<Position> positions) {
    /** More positions than this in one token are refused. */
    public static final int MAX_POSITIONS = 64;

    /** One command's place in the log. */
    public record Position(int partition, long offset) {
        public Position {
            if (partition < 0 || offset < 0) {
                throw new IllegalArgumentException("partition and offset must not be negative");
            }
        }
    }

    public SessionToken {
        positions = List.copyOf(positions);
    }

    public static SessionToken of(int partition, long offset) {
        return new SessionToken(List.of(new Position(partition, offset)));
    }

    /** Parses a header value; InvalidHeaderValue (400) when malformed. */
    public static SessionToken parse(String header) {
        Objects.requireNonNull(header, "header");
        String[] parts = header.split(",", -1);
        if (parts.length > MAX_POSITIONS) {
            throw invalid();
        }
        List<Position> positions = new ArrayList<>(parts.length);
        for (String part : parts) {
            String p = part.strip();
            int colon = p.indexOf(':');
            if (colon <= 0 || colon == p.length() - 1 || p.length() > 32) {
                throw invalid();
            }
            try {
                positions.add(new Position(Integer.parseInt(p.substring(0, colon)),
                        Long.parseLong(p.substring(colon + 1))));
            } catch (IllegalArgumentException e) {
                throw invalid();
            }
        }
        return new SessionToken(positions);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Position p : positions) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(p.partition()).append(':').append(p.offset());
        }
        return sb.toString();
    }

    private static TableServiceException invalid() {
        return TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE,
                "x-ms-session-token must be <partition>:<offset>[,<partition>:<offset>...].");
    }
}
