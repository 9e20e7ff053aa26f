package io.tablestream.server.crash;

import static io.tablestream.testsupport.Eventually.eventually;
import static io.tablestream.testsupport.Eventually.eventuallyPasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.server.process.ServerProcessLogs;
import io.tablestream.testsupport.TestDirectories;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka broker alone is killed ({@code kill -9}) under a server that keeps running and keeps
 * taking writes, then started again on the same data and address: writes are applied again soon
 * after it returns, and every write acknowledged before, during or after the outage reads back with
 * the ETag it was answered with.
 */
@ExtendWith(ServerProcessLogs.class)
class BrokerRestartIT {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerRestartIT.class);
    private static final String TABLE = "BrokerRestart";
    /** Fails the test; the target (10 s) is reported. */
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(90);

    private final Map<String, String> answered = new ConcurrentHashMap<>();
    private final AtomicLong lastSuccessNanos = new AtomicLong();

    @Test
    void writesApplyAgainSoonAfterTheBrokerReturnsAndNoAcknowledgedWriteIsLost() throws Exception {
        Path dir = Path.of("target", "broker-restart-" + System.nanoTime()).toAbsolutePath();
        Path brokerDir = dir.resolve("kafka");
        try (ServerProcess broker = ServerProcess.broker(brokerDir).start()) {
            int kafkaPort = broker.awaitServing(Duration.ofMinutes(1));
            try (ServerProcess server = ServerProcess.builder(dir.resolve("server"))
                    .with(ServerSettings.KAFKA_BOOTSTRAP_SERVERS, "127.0.0.1:" + kafkaPort)
                    .with(ServerSettings.PARTITIONS, 4)
                    .start()) {
                server.awaitServing(Duration.ofMinutes(2));
                server.client().createTable(TABLE);
                AtomicBoolean done = new AtomicBoolean();
                List<Thread> writers = new ArrayList<>();
                for (int w = 0; w < 3; w++) {
                    writers.add(writer(server, "w" + w, done));
                }
                eventually("writes acknowledged before the outage", () -> answered.size() >= 30, Duration.ofSeconds(60));
                int before = answered.size();
                broker.kill();
                LOG.info("broker killed after {} acknowledged writes", before);
                Thread.sleep(Long.getLong("broker.outageMillis", 3_000));

                try (ServerProcess again = ServerProcess.broker(brokerDir).start()) {
                    assertThat(again.awaitServing(Duration.ofMinutes(1))).as("the broker keeps its address").isEqualTo(kafkaPort);
                    long back = System.nanoTime();
                    eventuallyPasses(() -> assertThat(lastSuccessNanos.get())
                            .as(() -> "a write succeeded after the broker returned; server:\n" + server.tail())
                            .isGreaterThan(back), RECOVERY_BOUND);
                    LOG.info("writes applied again {} ms after the broker was ready", (lastSuccessNanos.get() - back) / 1_000_000);
                    int returned = answered.size();
                    eventually("writes acknowledged after the outage", () -> answered.size() >= returned + 30,
                            RECOVERY_BOUND);
                    done.set(true);
                    for (Thread t : writers) {
                        t.join(60_000);
                    }
                    verify(server);
                    server.stop();
                    again.stop();
                }
            }
        }
        TestDirectories.delete(dir);
    }

    private Thread writer(ServerProcess server, String pk, AtomicBoolean done) {
        TableClient sdk = sdk(server);
        Thread t = new Thread(() -> {
            for (int i = 0; !done.get(); i++) {
                String rk = "r" + i;
                try {
                    Response<Void> r = sdk.createEntityWithResponse(new TableEntity(pk, rk).addProperty("N", i), null,
                            Context.NONE);
                    answered.put(pk + "/" + rk, etag(r.getHeaders().getValue("ETag")));
                    lastSuccessNanos.set(System.nanoTime());
                } catch (RuntimeException e) {
                    // during the outage: 503 (the write may or may not be applied later) or a timeout
                    pause();
                }
            }
        }, "broker-restart-writer");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Reads the whole table back. A partition whose task restarted after the outage (its producer
     * fenced while the broker was gone) answers 503 until it has replayed its log: that is a
     * moment's unavailability, not a loss, so the scan is repeated on 503 for up to a minute.
     */
    private void verify(ServerProcess server) throws InterruptedException {
        Map<String, String> found = new HashMap<>();
        eventually("a whole scan", () -> {
            found.clear();
            try {
                sdk(server).listEntities().forEach(e -> found.put(e.getPartitionKey() + "/" + e.getRowKey(),
                        etag(e.getETag())));
                return true;
            } catch (com.azure.core.exception.HttpResponseException e) {
                if (e.getResponse().getStatusCode() != 503) {
                    throw new AssertionError("the verifying scan failed", e);
                }
                LOG.info("the verifying scan met a 503 (a partition catching up); again in a moment");
                return false;
            }
        }, Duration.ofMinutes(1));
        Map<String, String> acknowledged = new HashMap<>();
        answered.keySet().forEach(k -> acknowledged.put(k, found.get(k)));
        assertThat(acknowledged).as("every acknowledged write, with its ETag").isEqualTo(answered);
        LOG.info("verified {} acknowledged writes ({} rows in all)", answered.size(), found.size());
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Without quotes: the SDK hands out the ETag header without its closing quote. */
    private static String etag(String value) {
        return value == null ? null : value.replace("\"", "");
    }

    private static TableClient sdk(ServerProcess server) {
        return new TableClientBuilder().connectionString(server.connectionString()).tableName(TABLE)
                .retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(0))).buildClient();
    }
}
