package io.tablestream.query.plan;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.History;
import java.util.Optional;

/**
 * The {@code asOf} option of Get Entity, Query Entities and Count Entities (an extension): read the
 * table as it was at a past UTC time, from its entity history. The time must lie within the
 * table's history retention (at or after its horizon) and not after the request was received.
 */
public final class PointInTime {
    /** The query parameter. */
    public static final String PARAMETER = "asOf";
    /**
     * How far a request forwarded between instances may lie outside the window its first instance
     * checked (the two received it at different times, on clocks that may differ a little).
     */
    private static final long FORWARDED_GRACE_TICKS = 60 * EdmDateTime.TICKS_PER_SECOND;

    private PointInTime() {
    }

    /**
     * The time {@code value} names, or empty when it is null (a plain read).
     *
     * @param receivedAt when the request was received
     * @param forwarded whether another instance forwarded the request (it checked the window)
     * @throws TableServiceException InvalidQueryParameterValue (400) for a malformed time, a table
     *         without history, a time before the table's retention horizon or after now
     */
    public static Optional<EdmDateTime> parse(String value, TableRecord table, EdmDateTime receivedAt,
                                              boolean forwarded) {
        if (value == null) {
            return Optional.empty();
        }
        EdmDateTime time = EdmDateTime.parse(value.strip()).orElseThrow(() -> invalid(
                PARAMETER + " is a UTC time such as 2026-11-24T12:00:00Z: '" + value + "'."));
        if (!table.keepsHistory()) {
            throw invalid("The table keeps no entity history, so it cannot be read " + PARAMETER + " a past time:"
                    + " create it with " + History.RETENTION_PROPERTY + " in the Create Table body to keep one.");
        }
        long grace = forwarded ? FORWARDED_GRACE_TICKS : 0;
        EdmDateTime horizon = History.horizon(receivedAt, table.historyRetentionSeconds());
        if (time.epochTicks() < horizon.epochTicks() - grace) {
            throw invalid(PARAMETER + " " + time.toIso() + " is before the table's history retention horizon ("
                    + horizon.toIso() + ", " + table.historyRetentionSeconds() + " seconds ago).");
        }
        if (time.epochTicks() > receivedAt.epochTicks() + grace) {
            throw invalid(PARAMETER + " " + time.toIso() + " is in the future (the request was received at "
                    + receivedAt.toIso() + ").");
        }
        return Optional.of(time);
    }

    private static TableServiceException invalid(String message) {
        return TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE, message);
    }
}
