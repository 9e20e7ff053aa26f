package io.tablestream.query.feed;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import java.time.Instant;

/**
 * Where a new reader of the change feed starts: the oldest change kept, the end (only changes
 * after now), or the first change written at or after a time.
 */
public sealed interface FeedStart {
    /** The oldest change the topic keeps. */
    record Beginning() implements FeedStart {
    }

    /** The end of the feed: only changes committed from now on. */
    record Now() implements FeedStart {
    }

    /** The first change whose record was written at or after {@code time}. */
    record At(Instant time) implements FeedStart {
    }

    /**
     * Parses the {@code from} option: {@code beginning}, {@code now}, or an ISO-8601 UTC time
     * ({@code 2026-11-24T12:00:00Z}, up to seven fractional digits).
     */
    static FeedStart parse(String from) {
        if (from.equals("beginning")) {
            return new Beginning();
        }
        if (from.equals("now")) {
            return new Now();
        }
        return EdmDateTime.parse(from).map(t -> (FeedStart) new At(t.toInstant())).orElseThrow(() ->
                TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                        "from is 'beginning', 'now' or a UTC time such as 2026-11-24T12:00:00Z: '" + from + "'."));
    }
}
