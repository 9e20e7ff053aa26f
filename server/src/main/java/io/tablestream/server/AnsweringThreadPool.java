package io.tablestream.server;

import java.util.Deque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server's thread pool, whose threads also complete waiting requests and write their answers
 * ({@link #answers()}), so that an answer and the connection's next request share one thread wake-up.
 *
 * <p>Jetty re-dispatches a connection to a pool thread once an asynchronous exchange completes on a
 * thread that was not reading it (to read the connection's next request): a second wake-up after the
 * one that brought the outcome to the answering thread. An answer task run here takes that
 * re-dispatch and runs it itself once the answer is written, on the same thread.
 */
final class AnsweringThreadPool extends QueuedThreadPool {
    private static final Logger LOG = LoggerFactory.getLogger(AnsweringThreadPool.class);
    /** The connection re-dispatch an answer task deferred; a marker while none has been. */
    private static final ThreadLocal<Runnable[]> ANSWERING = new ThreadLocal<>();
    private final Executor answers = this::answer;

    AnsweringThreadPool(int maxThreads, int minThreads) {
        super(maxThreads, minThreads);
    }

    /**
     * Starts this pool now, before the HTTP server does (an outcome this instance decides for another is
     * published by an answer task as soon as the processor runs), and stops it with {@code started}, after
     * the HTTP server that is started later.
     */
    AnsweringThreadPool startedWith(Deque<AutoCloseable> started) {
        try {
            start();
        } catch (Exception e) {
            throw new IllegalStateException("The HTTP server's thread pool did not start", e);
        }
        started.push(this::stop);
        return this;
    }

    /**
     * Who completes waiting requests and writes their answers: {@code ownThreads} threads of their own
     * (stopped with {@code started}), or this pool's threads ({@link #answers()}) when 0.
     */
    Executor answerers(int ownThreads, Deque<AutoCloseable> started) {
        if (ownThreads == 0) {
            return answers;
        }
        ResponderPool own = new ResponderPool(ownThreads);
        started.push(own);
        return own;
    }

    /** Runs answer tasks on this pool's threads (inline when already in one). */
    Executor answers() {
        return answers;
    }

    private void answer(Runnable task) {
        if (ANSWERING.get() != null) {
            task.run();
            return;
        }
        try {
            super.execute(() -> {
                Runnable[] deferred = new Runnable[1];
                ANSWERING.set(deferred);
                try {
                    task.run();
                } finally {
                    ANSWERING.remove();
                }
                if (deferred[0] != null) {
                    deferred[0].run();
                }
            });
        } catch (RejectedExecutionException e) {
            // stopped: the server is stopping and nobody can be answered any more; the caller (a stream
            // thread handing over an outcome) must not fail for it
            LOG.debug("An answer was not run: the HTTP server is stopping");
        }
    }

    @Override
    public void execute(Runnable job) {
        Runnable[] deferred = ANSWERING.get();
        if (deferred != null && deferred[0] == null && job instanceof HttpConnection) {
            deferred[0] = job;
            return;
        }
        super.execute(job);
    }
}
