package io.tablestream.core.rules;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;

/**
 * The entity history's rules. A table created with {@code HistoryRetentionInSeconds} (an extension
 * of Create Table) keeps every version of each of its entities — inserts, replaces, merges, deletes
 * and expiries, with Timestamp, ETag, operation and principal — for that long after the version
 * was written; a table created without it keeps none (history doubles what each write stores, so
 * a table pays for it only when asked). Versions older than the retention are removed in the
 * background; a read of the history never returns one, whenever the removal runs.
 */
public final class History {
    /** The Create Table member that turns history on. */
    public static final String RETENTION_PROPERTY = "HistoryRetentionInSeconds";

    private History() {
    }

    /** Throws {@code InvalidInput} unless a retention is absent or positive. */
    public static void validateRetention(Integer seconds) {
        if (seconds != null && seconds <= 0) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    RETENTION_PROPERTY + " must be an Edm.Int32 greater than 0 (seconds).");
        }
    }

    /** The oldest time a version may have to be kept at {@code now}: the retention horizon. */
    public static EdmDateTime horizon(EdmDateTime now, int retentionSeconds) {
        return EdmDateTime.ofEpochTicks(Math.max(EdmDateTime.MIN_EPOCH_TICKS,
                now.epochTicks() - retentionSeconds * EdmDateTime.TICKS_PER_SECOND));
    }

    /**
     * What a read at {@code asOf} answers from the version of an entity in force then (the newest
     * written at or before it): its entity, unless it was a delete or an expiry or had expired by
     * then.
     */
    public static java.util.Optional<io.tablestream.core.model.StoredEntity> stateAt(
            io.tablestream.core.command.ChangeEvent version, EdmDateTime asOf) {
        io.tablestream.core.model.StoredEntity s = version.change().newVersion();
        return s == null || s.isExpiredAt(asOf) ? java.util.Optional.empty() : java.util.Optional.of(s);
    }

    /** Whether a version written at {@code writtenAt} is still kept at {@code now}. */
    public static boolean kept(EdmDateTime writtenAt, EdmDateTime now, int retentionSeconds) {
        return writtenAt.epochTicks() >= horizon(now, retentionSeconds).epochTicks();
    }
}
