package io.tablestream.server;

import static io.tablestream.testsupport.Eventually.holdsThroughout;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ResponderPoolTest {

    @Test
    void runsATaskFromAnotherThreadOnItsOwnThreads() throws Exception {
        try (ResponderPool pool = new ResponderPool(2)) {
            CompletableFuture<String> ranOn = new CompletableFuture<>();

            pool.execute(() -> ranOn.complete(Thread.currentThread().getName()));

            assertThat(ranOn.get(5, TimeUnit.SECONDS)).startsWith("responder-")
                    .isNotEqualTo(Thread.currentThread().getName());
        }
    }

    @Test
    void runsAsManyTasksAtOnceAsItHasThreads() throws Exception {
        try (ResponderPool pool = new ResponderPool(3)) {
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(3);
            for (int i = 0; i < 5; i++) {
                pool.execute(() -> {
                    running.incrementAndGet();
                    started.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }

            assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
            // a fourth thread, if there were one, would start meanwhile
            holdsThroughout(() -> running.get() == 3, Duration.ofMillis(200));
            release.countDown();
        }
    }

    @Test
    void runsATaskSubmittedFromOneOfItsThreadsAtOnceOnThatThread() throws Exception {
        try (ResponderPool pool = new ResponderPool(2)) {
            CompletableFuture<String[]> threads = new CompletableFuture<>();

            pool.execute(() -> {
                String outer = Thread.currentThread().getName();
                String[] inner = new String[1];
                pool.execute(() -> inner[0] = Thread.currentThread().getName());
                threads.complete(new String[] {outer, inner[0]}); // already set: it ran inline
            });

            String[] names = threads.get(5, TimeUnit.SECONDS);
            assertThat(names[1]).isEqualTo(names[0]);
        }
    }
}
