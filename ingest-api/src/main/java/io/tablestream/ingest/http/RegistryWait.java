package io.tablestream.ingest.http;

import io.tablestream.core.command.Outcome;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableName;
import io.tablestream.core.registry.TableRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Holds a write's answer until this instance's registry view shows what the write did, so the
 * client's next request here never contradicts the answer (no 404 right after a 201, no old ACL
 * right after a 204). Bounded: past the timeout the client gets ServerBusy, the write having been
 * applied.
 */
final class RegistryWait {
    private final TableRegistry registry;
    private final Duration timeout;

    RegistryWait(TableRegistry registry, Duration timeout) {
        this.registry = registry;
        this.timeout = timeout;
    }

    /** Completes with {@code outcome} once the view shows the table {@code outcome} created under {@code name}. */
    CompletableFuture<Outcome> tableCreated(String account, TableName name, Outcome outcome) {
        long id = outcome.table().tableId();
        return until(() -> registry.byName(account, name).map(t -> t.tableId() == id).orElse(false), outcome);
    }

    /** Completes with {@code value} once {@code visible} holds for the view; fails with ServerBusy past the timeout. */
    <T> CompletableFuture<T> until(BooleanSupplier visible, T value) {
        return registry.awaitChange(visible).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((v, e) -> {
            if (e instanceof TimeoutException) {
                throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                        "The change was applied but this instance has not seen it yet; retry shortly.");
            }
            if (e != null) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
            return value;
        });
    }
}
