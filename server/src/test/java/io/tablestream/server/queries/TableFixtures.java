package io.tablestream.server.queries;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** The vocabulary of the query and SAS integration tests: tables with unique names, bulk inserts, key order. */
public final class TableFixtures {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** (PartitionKey, RowKey) order, the order every query returns. */
    public static final Comparator<TableEntity> KEY_ORDER =
            Comparator.comparing(TableEntity::getPartitionKey).thenComparing(TableEntity::getRowKey);

    private TableFixtures() {
    }

    /** A table name no other test uses: {@code prefix} followed by digits. */
    public static String uniqueName(String prefix) {
        return prefix + (System.nanoTime() % 1_000_000) + SEQUENCE.incrementAndGet();
    }

    /** A new, empty table with a unique name starting with {@code prefix}. */
    public static TableClient givenTable(TableServiceClient service, String prefix) {
        return service.createTable(uniqueName(prefix));
    }

    /** A new table that keeps entity history for {@code retentionSeconds} (created over raw HTTP: an extension). */
    public static String givenTableWithHistory(io.tablestream.server.TablestreamServerExtension.RunningServer server,
                                               int retentionSeconds) {
        String name = uniqueName("History");
        io.tablestream.server.RawTableClient.Response r = io.tablestream.server.RawTableClient.to(server).send("POST",
                "Tables", "{\"TableName\":\"" + name + "\",\"HistoryRetentionInSeconds\":" + retentionSeconds + "}",
                "Content-Type", "application/json");
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return name;
    }

    /**
     * Inserts the entities with entity group transactions of up to 100 (one PartitionKey each),
     * several at a time.
     */
    /**
     * Now, as a UTC time of millisecond precision (as a client gives an as-of time), returned once the
     * clock has left that millisecond: Timestamps are of millisecond precision too, so a write sent in
     * the same millisecond would fall at or before the returned time.
     */
    public static String aMomentBetweenWrites() {
        java.time.Instant then = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        while (!java.time.Instant.now().isAfter(then.plusMillis(1))) {
            Thread.onSpinWait();
        }
        return then.toString();
    }

    public static void insertAll(TableClient table, List<TableEntity> entities) {
        Map<String, List<TableEntity>> byPartition = new LinkedHashMap<>();
        for (TableEntity e : entities) {
            byPartition.computeIfAbsent(e.getPartitionKey(), k -> new ArrayList<>()).add(e);
        }
        List<List<TableTransactionAction>> batches = new ArrayList<>();
        for (List<TableEntity> partition : byPartition.values()) {
            for (int from = 0; from < partition.size(); from += 100) {
                List<TableTransactionAction> batch = new ArrayList<>();
                for (TableEntity e : partition.subList(from, Math.min(partition.size(), from + 100))) {
                    batch.add(new TableTransactionAction(TableTransactionActionType.CREATE, e));
                }
                batches.add(batch);
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (List<TableTransactionAction> batch : batches) {
                done.add(pool.submit(() -> table.submitTransaction(batch)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("inserting the test data failed", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** "PartitionKey/RowKey" of each entity, in the order given. */
    public static List<String> keysOf(Iterable<TableEntity> entities) {
        List<String> keys = new ArrayList<>();
        for (TableEntity e : entities) {
            keys.add(e.getPartitionKey() + "/" + e.getRowKey());
        }
        return keys;
    }
}
