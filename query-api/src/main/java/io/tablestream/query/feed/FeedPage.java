package io.tablestream.query.feed;

import io.tablestream.core.command.ChangeEvent;
import java.util.List;

/**
 * One answer of the change feed: the events read, in the order of their partitions, and the
 * cursor after the last record examined.
 *
 * @param caughtUp whether every partition was read to its committed end (nothing more to read now)
 */
public record FeedPage(List<ChangeEvent> events, FeedCursor next, boolean caughtUp) {
    public FeedPage {
        events = List.copyOf(events);
    }
}
