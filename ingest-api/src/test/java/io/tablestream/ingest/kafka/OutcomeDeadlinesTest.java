package io.tablestream.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A waiting request's timeout, kept by one thread that is not woken per request. */
class OutcomeDeadlinesTest {
    private final ExecutorService completions = Executors.newSingleThreadExecutor(r -> new Thread(r, "completions-test"));
    private final OutcomeDeadlines deadlines = new OutcomeDeadlines(completions, "outcome-deadlines-test");

    @AfterEach
    void stop() {
        deadlines.close();
        completions.shutdownNow();
    }

    @Test
    void anOutcomeThatDoesNotComeInTimeFailsWithATimeoutOnTheCompletionsThread() {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        AtomicReference<String> failedOn = new AtomicReference<>();
        CompletableFuture<String> seen = outcome.whenComplete((v, e) -> failedOn.set(Thread.currentThread().getName()));
        long start = System.nanoTime();

        deadlines.watch(outcome, Duration.ofMillis(50));

        assertThatThrownBy(() -> seen.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(TimeoutException.class);
        assertThat(System.nanoTime() - start).as("not before its time").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(failedOn.get()).isEqualTo("completions-test");
        assertThat(deadlines.watched()).isZero();
    }

    @Test
    void anOutcomeThatComesIsForgottenAndNeverFailed() throws Exception {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        deadlines.watch(outcome, Duration.ofMillis(100));

        outcome.complete("applied");

        assertThat(deadlines.watched()).isZero();
        Thread.sleep(200);
        assertThat(outcome.join()).isEqualTo("applied");
    }

    @Test
    void anEarlierDeadlineWakesTheThreadSleepingUntilALaterOne() {
        CompletableFuture<String> late = new CompletableFuture<>();
        deadlines.watch(late, Duration.ofMinutes(5));
        CompletableFuture<String> soon = new CompletableFuture<>();
        long start = System.nanoTime();

        deadlines.watch(soon, Duration.ofMillis(30));

        assertThatThrownBy(() -> soon.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(TimeoutException.class);
        assertThat(System.nanoTime() - start).as("well before the idle sleep's end").isLessThan(TimeUnit.MILLISECONDS.toNanos(900));
        assertThat(late).isNotDone();
        assertThat(deadlines.watched()).isEqualTo(1);
    }

    @Test
    void manyWaitersEachFailAtTheirOwnTimeOrComplete() {
        List<CompletableFuture<Integer>> outcomes = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            CompletableFuture<Integer> outcome = new CompletableFuture<>();
            deadlines.watch(outcome, Duration.ofMillis(20 + i % 50));
            outcomes.add(outcome);
        }
        for (int i = 0; i < outcomes.size(); i += 2) {
            outcomes.get(i).complete(i);
        }

        CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new)).handle((v, e) -> null).orTimeout(5, TimeUnit.SECONDS)
                .join();
        for (int i = 0; i < outcomes.size(); i++) {
            CompletableFuture<Integer> outcome = outcomes.get(i);
            if (i % 2 == 0) {
                assertThat(outcome.join()).isEqualTo(i);
            } else {
                assertThatThrownBy(outcome::join).hasCauseInstanceOf(TimeoutException.class);
            }
        }
        assertThat(deadlines.watched()).isZero();
    }

    @Test
    void afterCloseWhatWaitsStillTimesOutAndNewWaitersToo() {
        CompletableFuture<String> before = new CompletableFuture<>();
        deadlines.watch(before, Duration.ofMillis(50));

        deadlines.close();
        CompletableFuture<String> after = new CompletableFuture<>();
        deadlines.watch(after, Duration.ofMillis(50));

        assertThatThrownBy(() -> before.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(TimeoutException.class);
        assertThatThrownBy(() -> after.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(TimeoutException.class);
    }
}
