package io.tablestream.bench.lean;

import io.tablestream.client.LeanTableClient;
import io.tablestream.core.model.EmulatorAccount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Restart after {@code kill -9}, timed: starts a server (a child JVM on the given classpath, embedded
 * broker, its own data directory), loads a table of N entities through {@link LeanTableClient}
 * (transactions of 100), then for each round keeps writes in flight for a few seconds, kills the
 * server with SIGKILL, starts it again on the same data and measures how long until it serves: a
 * sample of loaded entities, one from every 1/200th of the table, each read back with 200.
 *
 * <pre>
 * RestartAfterKill --server-classpath CP [--entities 1000000] [--rounds 5] [--data DIR]
 *                  [--port 10002] [--java-opts "-Xmx1g -XX:TieredStopAtLevel=1"] [--write-seconds 3]
 * </pre>
 *
 * Prints {@code RESULT restart <entities> round-<i> <ms to serving> <ms the server logged as ready>}
 * per round and a summary; exits 3 if a sampled entity is missing after a restart.
 */
public final class RestartAfterKill {
    private static final String ACCOUNT = "devstoreaccount1";
    private static final String KEY = EmulatorAccount.KEY;
    private static final String TABLE = "Restart";
    private static final int BATCH = 100;
    private static final int SAMPLES = 200;
    private static final Duration START_BOUND = Duration.ofMinutes(5);

    private final String classpath;
    private final Path dataDir;
    private final int port;
    private final List<String> javaOptions;
    private Process server;
    private int generation;

    private RestartAfterKill(String classpath, Path dataDir, int port, List<String> javaOptions) {
        this.classpath = classpath;
        this.dataDir = dataDir;
        this.port = port;
        this.javaOptions = javaOptions;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i], args[i + 1]);
        }
        if (!o.containsKey("--server-classpath") || args.length % 2 != 0) {
            System.err.println("Usage: RestartAfterKill --server-classpath CP [--entities 1000000] [--rounds 5]"
                    + " [--data DIR] [--port 10002] [--java-opts \"-Xmx1g -XX:TieredStopAtLevel=1\"] [--write-seconds 3]");
            System.exit(2);
        }
        long entities = Long.parseLong(o.getOrDefault("--entities", "1000000"));
        int rounds = Integer.parseInt(o.getOrDefault("--rounds", "5"));
        int writeSeconds = Integer.parseInt(o.getOrDefault("--write-seconds", "3"));
        Path data = Path.of(o.getOrDefault("--data", Files.createTempDirectory("tablestream-restart").toString()));
        int port = Integer.parseInt(o.getOrDefault("--port", "10002"));
        List<String> javaOptions = Arrays.asList(o.getOrDefault("--java-opts", "-Xmx1g -XX:TieredStopAtLevel=1").trim().split("\\s+"));
        if (entities < BATCH || entities % BATCH != 0) {
            System.err.println("--entities is a positive multiple of " + BATCH);
            System.exit(2);
        }
        RestartAfterKill run = new RestartAfterKill(o.get("--server-classpath"), data, port, javaOptions);
        try {
            System.exit(run.run(entities, rounds, writeSeconds));
        } finally {
            run.stopServer();
        }
    }

    private int run(long entities, int rounds, int writeSeconds) throws Exception {
        String endpoint = "http://127.0.0.1:" + port + "/" + ACCOUNT;
        long t0 = System.nanoTime();
        startServer();
        LeanTableClient client = new LeanTableClient(endpoint, LeanTableClient.accountSas(endpoint, ACCOUNT, KEY));
        awaitAnswer(() -> client.createTable(TABLE), t0);
        System.err.printf("server up in %d ms; loading %,d entities%n", millisSince(t0), entities);
        long loadStart = System.nanoTime();
        load(client, entities);
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
        System.err.printf("loaded %,d entities in %.1f s (%,.0f/s)%n", entities, loadSeconds, entities / loadSeconds);
        System.out.printf("RESULT restart %d load %.0f entities/s%n", entities, entities / loadSeconds);
        List<Long> times = new ArrayList<>();
        Random random = new Random(42);
        for (int round = 1; round <= rounds; round++) {
            long written = writeFor(client, writeSeconds, random);
            server.destroyForcibly().waitFor();
            long start = System.nanoTime();
            startServer();
            int missing = awaitSamples(client, entities, start);
            long ms = millisSince(start);
            if (missing > 0) {
                System.out.printf("FAILED round %d: %d sampled entities missing after restart%n", round, missing);
                return 3;
            }
            times.add(ms);
            System.out.printf("RESULT restart %d round-%d %d ms-to-serving %s ms-logged-ready (%d writes in flight before the kill)%n",
                    entities, round, ms, loggedReady(), written);
        }
        times.sort(null);
        System.out.printf("SUMMARY restart %d entities, %d rounds: median %d ms, min %d ms, max %d ms%n",
                entities, rounds, times.get(times.size() / 2), times.get(0), times.get(times.size() - 1));
        return 0;
    }

    private void startServer() throws IOException {
        generation++;
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(javaOptions);
        command.add("-cp");
        command.add(classpath);
        command.add("io.tablestream.server.Main");
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log().toFile());
        b.environment().put("TABLESTREAM_DATA_DIR", dataDir.toString());
        b.environment().put("TABLESTREAM_PORT", Integer.toString(port));
        server = b.start();
    }

    private Path log() {
        return dataDir.resolveSibling(dataDir.getFileName() + "-server-" + generation + ".log");
    }

    private String loggedReady() throws IOException {
        for (String line : Files.readAllLines(log())) {
            int i = line.indexOf("Ready ");
            if (i >= 0 && line.contains(" ms after the JVM started")) {
                return line.substring(i + 6, line.indexOf(" ms", i));
            }
        }
        return "?";
    }

    private void stopServer() throws InterruptedException {
        if (server != null && server.isAlive()) {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        }
    }

    /** Transactions of 100 entities each on its own PartitionKey, 16 in flight. */
    private static void load(LeanTableClient client, long entities) throws Exception {
        Semaphore inFlight = new Semaphore(16);
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicLong done = new AtomicLong();
        long partitions = entities / BATCH;
        for (long p = 0; p < partitions && failure.get() == null; p++) {
            List<LeanTableClient.BatchOperation> ops = new ArrayList<>(BATCH);
            for (int r = 0; r < BATCH; r++) {
                ops.add(LeanTableClient.BatchOperation.insert(rowKey(r), properties(p, r)));
            }
            inFlight.acquire();
            client.batch(TABLE, partitionKey(p), ops).whenComplete((a, e) -> {
                inFlight.release();
                if (e != null || !a.succeeded()) {
                    failure.compareAndSet(null, e != null ? e.toString() : "status " + a.status());
                } else if (done.incrementAndGet() % 1000 == 0) {
                    System.err.printf("  %,d entities%n", done.get() * BATCH);
                }
            });
        }
        inFlight.acquire(16);
        if (failure.get() != null) {
            throw new IllegalStateException("Loading failed: " + failure.get());
        }
    }

    /** Upserts on their own PartitionKeys, 8 in flight, for the given seconds: the server is busy when killed. */
    private static long writeFor(LeanTableClient client, int seconds, Random random) throws InterruptedException {
        Semaphore inFlight = new Semaphore(8);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long n = 0;
        while (System.nanoTime() < end) {
            inFlight.acquire();
            n++;
            client.upsert(TABLE, "w" + random.nextInt(1000), "r" + random.nextInt(100_000), Map.of("N", n))
                    .whenComplete((a, e) -> inFlight.release());
        }
        return n;
    }

    /** Until every sampled entity reads back 200; the count of those that answered 404. */
    private int awaitSamples(LeanTableClient client, long entities, long start) throws Exception {
        long partitions = entities / BATCH;
        for (int s = 0; s < SAMPLES; s++) {
            long p = partitions * s / SAMPLES;
            int r = (int) ((s * 37L) % BATCH);
            LeanTableClient.Answer a = awaitAnswer(() -> client.get(TABLE, partitionKey(p), rowKey(r)), start);
            if (a.status() == 404) {
                return SAMPLES - s;
            }
        }
        return 0;
    }

    /** Retries a request until the server answers something other than a connection failure or 503. */
    private LeanTableClient.Answer awaitAnswer(java.util.function.Supplier<CompletableFuture<LeanTableClient.Answer>> request,
                                               long start) throws Exception {
        while (true) {
            if (System.nanoTime() - start > START_BOUND.toNanos()) {
                throw new IllegalStateException("The server did not serve within " + START_BOUND + "; see " + log());
            }
            if (!server.isAlive()) {
                throw new IllegalStateException("The server exited with " + server.exitValue() + "; see " + log());
            }
            try {
                LeanTableClient.Answer a = request.get().get(10, TimeUnit.SECONDS);
                if (a.status() != 503 && a.status() != 500) {
                    return a;
                }
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // not listening yet
            }
            Thread.sleep(20);
        }
    }

    private static String partitionKey(long p) {
        return String.format("p%07d", p);
    }

    private static String rowKey(int r) {
        return String.format("r%03d", r);
    }

    private static Map<String, Object> properties(long p, int r) {
        return Map.of("Label", "entity " + p + "/" + r + " of the restart benchmark, about two hundred bytes",
                "Quantity", r, "Sequence", p * BATCH + r, "Score", r + 0.5, "Active", (r & 1) == 0);
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
