package io.tablestream.server;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that complete waiting requests and write their answers — never a Kafka client's or a
 * stream thread. A task submitted from one of its own threads (the next step of an answer already
 * being written here) runs at once instead of waking another thread: under load each thread switch
 * costs as much as the work.
 */
final class ResponderPool implements Executor, AutoCloseable {
    private final ThreadGroup group = new ThreadGroup("responders");
    private final ExecutorService pool;

    ResponderPool(int threads) {
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(group, r, "responder-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void execute(Runnable task) {
        if (Thread.currentThread().getThreadGroup() == group) {
            task.run();
        } else {
            pool.execute(task);
        }
    }

    @Override
    public void close() throws InterruptedException {
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }
}
