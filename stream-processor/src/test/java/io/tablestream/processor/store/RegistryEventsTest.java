package io.tablestream.processor.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class RegistryEventsTest {
    private final RegistryEvents events = new RegistryEvents();

    @Test
    void completesAWaiterOnceItsConditionHolds() {
        AtomicBoolean visible = new AtomicBoolean();
        CompletableFuture<Void> wait = events.await(visible::get);

        events.changed();
        boolean before = wait.isDone();
        visible.set(true);
        events.changed();

        assertThat(before).isFalse();
        assertThat(wait).isCompleted();
    }

    @Test
    void aConditionThatThrowsFailsItsWaiterAndNotTheCaller() {
        AtomicBoolean broken = new AtomicBoolean();
        CompletableFuture<Void> failing = events.await(() -> {
            if (broken.get()) {
                throw new IllegalStateException("store not queryable");
            }
            return false;
        });
        AtomicBoolean visible = new AtomicBoolean();
        CompletableFuture<Void> other = events.await(visible::get);
        broken.set(true);
        visible.set(true);

        assertThatCode(events::changed).doesNotThrowAnyException();

        assertThat(failing).isCompletedExceptionally();
        assertThat(other).isCompleted();
    }
}
