package io.tablestream.processor.internal.state;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which partitions' copies of one store, in this process, may hold a key beginning with a given
 * prefix: what lets a reader skip a range scan that would find nothing. A {@link CommittedKeyValueStore}
 * given this record marks its partition when it opens holding such a key, and before it takes one in
 * (a write of the stream thread, a changelog record restored or applied by a standby), so a reader that
 * finds its partition unmarked knows the scan would be empty. A mark stays until the process ends
 * (keys removed since leave it: the scan is then merely not skipped); a store whose transaction is
 * aborted keeps it too.
 *
 * <p>Exact only for a store without Kafka Streams' record cache in front of it: the cache holds
 * writes above the store until it flushes them, while readers already see them.
 */
public final class KeyPresence {
    private final byte[] prefix;
    private final Set<Integer> marked = ConcurrentHashMap.newKeySet();

    public KeyPresence(byte[] prefix) {
        this.prefix = prefix.clone();
    }

    /** Whether a copy of {@code partition}'s store may hold a key beginning with the prefix (false: none does). */
    public boolean mayHold(int partition) {
        return marked.contains(partition);
    }

    /** The first key a seek to the prefix lands on decides whether a store opens holding one. */
    byte[] prefix() {
        return prefix.clone();
    }

    /** Marks {@code partition} when {@code key} (of a store of that partition) begins with the prefix. */
    void saw(int partition, byte[] key) {
        if (key != null && key.length >= prefix.length
                && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length) && !marked.contains(partition)) {
            marked.add(partition);
        }
    }
}
