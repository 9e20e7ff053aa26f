package io.tablestream.processor.internal.state;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * The stores a stream thread wrote in its open transaction. Kafka Streams processes, commits and
 * aborts a task's transaction on the thread that owns the task's producer (one producer per stream
 * thread under exactly_once_v2), so a thread-local set is exactly the set of stores that transaction
 * touched.
 */
final class TransactionBoundStores {
    private static final ThreadLocal<Set<CommittedKeyValueStore>> WRITTEN =
            ThreadLocal.withInitial(LinkedHashSet::new);

    private TransactionBoundStores() {
    }

    /** {@code store} was written in the open transaction of the current thread. */
    static void written(CommittedKeyValueStore store) {
        WRITTEN.get().add(store);
    }

    /**
     * The current thread's transaction committed, with {@code changelogOffsets} the last offset it
     * wrote to each partition: every store it touched makes its writes durable.
     */
    static void committed(Map<TopicPartition, Long> changelogOffsets) {
        Set<CommittedKeyValueStore> stores = WRITTEN.get();
        try {
            for (CommittedKeyValueStore store : stores) {
                store.transactionCommitted(changelogOffsets);
            }
        } finally {
            stores.clear();
        }
    }

    /** The current thread's transaction was aborted: its writes are forgotten. */
    static void aborted() {
        Set<CommittedKeyValueStore> stores = WRITTEN.get();
        try {
            for (CommittedKeyValueStore store : stores) {
                store.transactionAborted();
            }
        } finally {
            stores.clear();
        }
    }

    /** A store that closes leaves whatever transaction still names it. */
    static void forget(CommittedKeyValueStore store) {
        WRITTEN.get().remove(store);
    }
}
