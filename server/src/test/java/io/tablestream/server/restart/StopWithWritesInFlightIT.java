package io.tablestream.server.restart;

import static io.tablestream.testsupport.Eventually.eventuallyPasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server stopped while sync writes (SDK) and async writes ({@code Prefer: respond-async}) are
 * streaming in: after a restart on the same data every write that was acknowledged — 201/204, or
 * 202 for an async one — is there.
 */
class StopWithWritesInFlightIT {
    private static final Logger LOG = LoggerFactory.getLogger(StopWithWritesInFlightIT.class);

    @TempDir
    Path dataDir;

    @Test
    void losesNoAcknowledgedWriteWhenStoppedMidStream() throws Exception {
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean stopping = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        String table = "InFlight";
        try (OwnServer server = OwnServer.start(dataDir)) {
            server.client().createTable(table);
            CountDownLatch warm = new CountDownLatch(4 * 20);
            for (int w = 0; w < 4; w++) {
                int writer = w;
                TableClient sdk = new TableClientBuilder().connectionString(OwnServer.connectionString(server.port()))
                        .tableName(table).retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(0)))
                        .buildClient();
                writers.add(started(() -> {
                    for (int i = 0; !stopping.get(); i++) {
                        try {
                            sdk.upsertEntity(new TableEntity("sync" + writer, "r" + i).addProperty("N", i));
                            acknowledged.add("sync" + writer + "/r" + i);
                            warm.countDown();
                        } catch (RuntimeException e) {
                            return; // the server went away: this write was not acknowledged
                        }
                    }
                }));
            }
            RawTableClient raw = new RawTableClient(server.port());
            for (int w = 0; w < 4; w++) {
                int writer = w;
                writers.add(started(() -> {
                    for (int i = 0; !stopping.get(); i++) {
                        try {
                            RawTableClient.Response r = raw.send("POST", table, "{\"PartitionKey\":\"async" + writer
                                    + "\",\"RowKey\":\"r" + i + "\"}", "Prefer", "respond-async");
                            if (r.status() == 202) {
                                acknowledged.add("async" + writer + "/r" + i);
                                warm.countDown();
                            } else if (r.status() >= 500) {
                                return;
                            }
                        } catch (Exception e) {
                            return;
                        }
                    }
                }));
            }
            assertThat(warm.await(60, TimeUnit.SECONDS)).as("writes flowing").isTrue();
            Duration stop = server.stop();
            LOG.info("Stopped with writes in flight in {} ms, {} writes acknowledged", stop.toMillis(),
                    acknowledged.size());
            stopping.set(true);
            for (Thread t : writers) {
                t.join(30_000);
                assertThat(t.isAlive()).as("a writer still blocked after the stop").isFalse();
            }
        }

        try (OwnServer restarted = OwnServer.start(dataDir)) {
            LOG.info("Restart took {} ms", restarted.startedIn().toMillis());
            TableClient tableClient = restarted.client().getTableClient(table);
            // 202-acknowledged writes are in the log; the restarted processor applies them
            eventuallyPasses(() -> {
                Set<String> found = new HashSet<>();
                tableClient.listEntities().forEach(e -> found.add(e.getPartitionKey() + "/" + e.getRowKey()));
                assertThat(found).containsAll(acknowledged);
            }, Duration.ofSeconds(30));
            assertThat(acknowledged).hasSizeGreaterThan(80);
            restarted.stop();
        }
    }

    private static Thread started(Runnable writer) {
        Thread t = new Thread(writer, "writer");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
