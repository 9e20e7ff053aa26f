package io.tablestream.query.plan;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.StoreReplica;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One page of an entity's history: its versions newest first, from a resume time, none older than
 * the table's retention horizon (versions past it may wait for the background sweep; they are
 * never returned), and the time of the next older version when the page is full.
 */
public record HistoryPage(List<ChangeEvent> versions, Optional<EdmDateTime> next) {
    /** The response header naming where the next page starts (the next older version's time, in ticks). */
    public static final String CONTINUATION_NEXT_VERSION = "x-ms-continuation-NextVersion";
    /** The query parameter that resumes a history at a {@link #CONTINUATION_NEXT_VERSION}. */
    public static final String NEXT_VERSION = "NextVersion";

    public HistoryPage {
        versions = List.copyOf(versions);
    }

    /**
     * Reads at most {@code top} versions of {@code key}, the newest written at or before
     * {@code from} first (the newest of all when null), stopping before the first older than
     * {@code horizon}.
     */
    public static HistoryPage read(EntityStore store, StoreReplica replica, int partition, EntityKey key,
                                   EdmDateTime from, EdmDateTime horizon, int top) {
        List<ChangeEvent> versions = new ArrayList<>(Math.min(top, 64));
        if (top == 0) {
            return new HistoryPage(versions, Optional.empty());
        }
        try (CloseableIterator<ChangeEvent> it = store.history(replica, partition, key, from)) {
            while (it.hasNext()) {
                ChangeEvent version = it.next();
                if (version.changedAt().epochTicks() < horizon.epochTicks()) {
                    break;
                }
                if (versions.size() == top) {
                    return new HistoryPage(versions, Optional.of(version.changedAt()));
                }
                versions.add(version);
            }
        }
        return new HistoryPage(versions, Optional.empty());
    }

    /**
     * The resume time a request carries ({@link #NEXT_VERSION}: ticks since the Unix epoch, as the
     * continuation header gave them), or null.
     *
     * @throws TableServiceException InvalidInput for a value that is not such a number
     */
    public static EdmDateTime resumeAt(String nextVersion) {
        if (nextVersion == null) {
            return null;
        }
        try {
            long ticks = Long.parseLong(nextVersion.strip());
            if (ticks >= EdmDateTime.MIN_EPOCH_TICKS && ticks <= EdmDateTime.MAX_EPOCH_TICKS) {
                return EdmDateTime.ofEpochTicks(ticks);
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                "The " + NEXT_VERSION + " continuation token is malformed.");
    }
}
