package io.tablestream.protocol.http;

import java.util.Locale;

/**
 * The {@code Prefer} header: {@code return-content} / {@code return-no-content} (whether an insert
 * echoes the entity) and {@code respond-async} (a write answered with 202 as soon as the command
 * log has it — a Tablestream extension for sinks that never read back).
 *
 * @param returnContent true, false, or null when the client did not say
 */
public record Preferences(Boolean returnContent, boolean respondAsync) {
    public static final String RETURN_CONTENT = "return-content";
    public static final String RETURN_NO_CONTENT = "return-no-content";
    public static final String RESPOND_ASYNC = "respond-async";

    public static final Preferences NONE = new Preferences(null, false);

    /** Parses every {@code Prefer} value (comma-separated preferences; unknown ones are ignored, as HTTP says). */
    public static Preferences parse(Iterable<String> headerValues) {
        Boolean returnContent = null;
        boolean async = false;
        for (String value : headerValues) {
            for (String preference : value.split(",")) {
                String p = preference.strip();
                int semicolon = p.indexOf(';');
                String token = (semicolon < 0 ? p : p.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
                switch (token) {
                    case RETURN_CONTENT -> returnContent = Boolean.TRUE;
                    case RETURN_NO_CONTENT -> returnContent = Boolean.FALSE;
                    case RESPOND_ASYNC -> async = true;
                    default -> { }
                }
            }
        }
        return new Preferences(returnContent, async);
    }

    /** Whether to return content, given the operation's default. */
    public boolean returnContentOr(boolean byDefault) {
        return returnContent == null ? byDefault : returnContent;
    }
}
