package io.tablestream.processor.store;

import java.util.Iterator;

/** An iterator over a store that holds resources until closed; use it in try-with-resources. */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
    @Override
    void close();
}
