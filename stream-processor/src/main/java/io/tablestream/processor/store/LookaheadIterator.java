package io.tablestream.processor.store;

import java.util.NoSuchElementException;

/**
 * A {@link CloseableIterator} that finds its next element ahead of {@link #next()}: a subclass
 * says only how to find the next one ({@link #fetch}), skipping what it must, and what to close.
 */
public abstract class LookaheadIterator<T> implements CloseableIterator<T> {
    private T next;
    private boolean done;

    /** The next element, or null when there is none (then it is not asked again). */
    protected abstract T fetch();

    @Override
    public final boolean hasNext() {
        if (next == null && !done) {
            next = fetch();
            done = next == null;
        }
        return next != null;
    }

    @Override
    public final T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        T t = next;
        next = null;
        return t;
    }
}
