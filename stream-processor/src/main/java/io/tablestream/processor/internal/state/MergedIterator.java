package io.tablestream.processor.internal.state;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.rocksdb.RocksIterator;

/**
 * The rows of a {@link CommittedKeyValueStore} between two keys: the pending writes of the open
 * transaction merged over the files, a pending value hiding the file's value of the same key (and a
 * pending delete hiding the key). Steps are serialized with {@link #close}, which the store calls
 * when it closes, so a cursor is never used after its native handle is freed.
 */
final class MergedIterator implements KeyValueIterator<Bytes, byte[]> {
    private final CommittedKeyValueStore store;
    private final RocksIterator files;
    private final Iterator<? extends Map.Entry<Bytes, ?>> overlay;
    private final Bytes from;
    private final Bytes to;
    private final boolean reverse;
    private Map.Entry<Bytes, ?> overlayHead;
    private KeyValue<Bytes, byte[]> next;
    private boolean closed;

    MergedIterator(CommittedKeyValueStore store, RocksIterator files, NavigableMap<Bytes, ?> overlay, Bytes from,
                   Bytes to, boolean reverse) {
        this.store = store;
        this.files = files;
        this.overlay = overlay.entrySet().iterator();
        this.from = from;
        this.to = to;
        this.reverse = reverse;
        if (reverse) {
            if (to == null) {
                files.seekToLast();
            } else {
                files.seekForPrev(to.get());
            }
        } else {
            if (from == null) {
                files.seekToFirst();
            } else {
                files.seek(from.get());
            }
        }
        this.overlayHead = this.overlay.hasNext() ? this.overlay.next() : null;
    }

    static KeyValueIterator<Bytes, byte[]> empty() {
        return new KeyValueIterator<>() {
            @Override
            public void close() {
            }

            @Override
            public Bytes peekNextKey() {
                throw new NoSuchElementException();
            }

            @Override
            public boolean hasNext() {
                return false;
            }

            @Override
            public KeyValue<Bytes, byte[]> next() {
                throw new NoSuchElementException();
            }
        };
    }

    /** The rows of {@code all} while their keys start with {@code prefix}. */
    static KeyValueIterator<Bytes, byte[]> whilePrefixed(KeyValueIterator<Bytes, byte[]> all, byte[] prefix) {
        return new KeyValueIterator<>() {
            @Override
            public void close() {
                all.close();
            }

            @Override
            public Bytes peekNextKey() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return all.peekNextKey();
            }

            @Override
            public boolean hasNext() {
                if (!all.hasNext()) {
                    return false;
                }
                byte[] key = all.peekNextKey().get();
                return key.length >= prefix.length
                        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
            }

            @Override
            public KeyValue<Bytes, byte[]> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return all.next();
            }
        };
    }

    @Override
    public synchronized boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (closed) {
            throw new InvalidStateStoreException("The iterator of store " + store.name() + " is closed");
        }
        while (true) {
            Bytes fileKey = fileKey();
            if (fileKey == null && overlayHead == null) {
                return false;
            }
            int order = fileKey == null ? 1 : overlayHead == null ? -1 : compare(fileKey, overlayHead.getKey());
            if (order < 0) {
                next = KeyValue.pair(fileKey, files.value());
                step();
                return true;
            }
            Map.Entry<Bytes, ?> taken = overlayHead;
            overlayHead = overlay.hasNext() ? overlay.next() : null;
            if (order == 0) {
                step(); // the pending value replaces the file's
            }
            byte[] value = CommittedKeyValueStore.valueOf(taken.getValue());
            if (value != null) {
                next = KeyValue.pair(taken.getKey(), value);
                return true;
            }
        }
    }

    /** The file cursor's key, or null past the end of the range. */
    private Bytes fileKey() {
        if (!files.isValid()) {
            return null;
        }
        Bytes key = Bytes.wrap(files.key());
        if (reverse ? from != null && key.compareTo(from) < 0 : to != null && key.compareTo(to) > 0) {
            return null;
        }
        return key;
    }

    private void step() {
        if (reverse) {
            files.prev();
        } else {
            files.next();
        }
    }

    /** Negative when {@code a} comes first in this iterator's direction. */
    private int compare(Bytes a, Bytes b) {
        int c = a.compareTo(b);
        return reverse ? -c : c;
    }

    @Override
    public synchronized KeyValue<Bytes, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue<Bytes, byte[]> result = next;
        next = null;
        return result;
    }

    @Override
    public synchronized Bytes peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return next.key;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            files.close();
            store.closed(this);
        }
    }
}
