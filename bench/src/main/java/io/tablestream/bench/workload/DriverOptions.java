package io.tablestream.bench.workload;

import io.tablestream.core.model.EmulatorAccount;
import java.time.Duration;
import java.util.Set;

/**
 * What a driver run does, from its command line.
 *
 * @param target the name the results carry (e.g. {@code azurite}, {@code tablestream})
 * @param connectionString how the SDK reaches the service
 * @param size entities loaded before measuring
 * @param partitions PartitionKeys of the loaded table
 * @param serverPid the server's process, for its resident memory; 0 for none
 * @param interval how often the mixed workload prints its latencies so far (ZERO: only at its end)
 * @param clientWarmUp how long the driver warms its own JVM first, against a stand-in endpoint of its own
 *                     ({@link ClientWarmUp}; ZERO: not at all)
 */
record DriverOptions(String target, String connectionString, long size, int partitions, Set<Workload> workloads,
                     Duration warmUp, Duration duration, long maxOperations, int loadThreads, long serverPid,
                     String tableName, long seed, Duration interval, Duration clientWarmUp) {


    static final String USAGE = """
            Usage: WorkloadDriver (--endpoint URL | --connection-string CS) --size N [options]
              --endpoint URL            Table service URL, e.g. http://127.0.0.1:10002/devstoreaccount1
              --account-name NAME       with --endpoint (default devstoreaccount1)
              --account-key KEY         with --endpoint (default: the emulator's well-known key)
              --connection-string CS    instead of --endpoint/--account-*
              --size N                  entities to load first (required)
              --partitions P            PartitionKeys of the loaded table (default min(1000, N/100))
              --workloads LIST          'all' or comma-separated: %s (default all)
              --duration SECONDS        measuring time per workload (default 20)
              --warmup SECONDS          unmeasured time before each workload (default 5)
              --client-warmup SECONDS   first warm the driver's own JVM for that long: the SDK's single
                                        writes and reads against a stand-in endpoint inside the driver,
                                        none sent to the endpoint measured (default 0: none)
              --max-ops N               at most N measured requests per workload (default no limit)
              --load-threads T          threads loading the table (default 4)
              --server-pid PID          sample the server's VmRSS after loading and at the end
              --target NAME             name in the RESULT lines (default: target)
              --table NAME              table to create (default Bench<random>); it must not exist
              --seed S                  random seed of the read keys (default 42)
              --interval SECONDS        mixed-200t: also print each interval's rates, latencies and
                                        server errors so far (INTERVAL lines; default 0: none)
            """.formatted(String.join(", ", Workload.labels()));

    static DriverOptions parse(String[] args) {
        String target = "target";
        String endpoint = null;
        String accountName = EmulatorAccount.NAME;
        String accountKey = EmulatorAccount.KEY;
        String connectionString = null;
        long size = -1;
        int partitions = -1;
        Set<Workload> workloads = Workload.parseList("all");
        double warmUp = 5;
        double duration = 20;
        long maxOperations = Long.MAX_VALUE;
        int loadThreads = 4;
        long pid = 0;
        String table = null;
        long seed = 42;
        double interval = 0;
        double clientWarmUp = 0;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (name.equals("--help") || name.equals("-h")) {
                throw new IllegalArgumentException("");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + name);
            }
            String value = args[++i];
            switch (name) {
                case "--target" -> target = value;
                case "--endpoint" -> endpoint = value;
                case "--account-name" -> accountName = value;
                case "--account-key" -> accountKey = value;
                case "--connection-string" -> connectionString = value;
                case "--size" -> size = Long.parseLong(value);
                case "--partitions" -> partitions = Integer.parseInt(value);
                case "--workloads" -> workloads = Workload.parseList(value);
                case "--duration" -> duration = Double.parseDouble(value);
                case "--warmup" -> warmUp = Double.parseDouble(value);
                case "--max-ops" -> maxOperations = Long.parseLong(value);
                case "--load-threads" -> loadThreads = Integer.parseInt(value);
                case "--server-pid" -> pid = Long.parseLong(value);
                case "--table" -> table = value;
                case "--seed" -> seed = Long.parseLong(value);
                case "--interval" -> interval = Double.parseDouble(value);
                case "--client-warmup" -> clientWarmUp = Double.parseDouble(value);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        if (size < 1) {
            throw new IllegalArgumentException("--size N (N >= 1) is required");
        }
        if (connectionString == null) {
            if (endpoint == null) {
                throw new IllegalArgumentException("--endpoint or --connection-string is required");
            }
            String scheme = endpoint.startsWith("https:") ? "https" : "http";
            connectionString = "DefaultEndpointsProtocol=" + scheme + ";AccountName=" + accountName + ";AccountKey="
                    + accountKey + ";TableEndpoint=" + endpoint + ";";
        }
        if (partitions < 0) {
            partitions = KeyLayout.defaultPartitions(size);
        }
        if (table == null) {
            table = "Bench" + Long.toString(System.currentTimeMillis(), 36);
        }
        if (loadThreads < 1 || maxOperations < 1 || duration <= 0 || warmUp < 0 || interval < 0
                || clientWarmUp < 0) {
            throw new IllegalArgumentException("--load-threads, --max-ops and --duration must be positive");
        }
        return new DriverOptions(target, connectionString, size, partitions, workloads, seconds(warmUp),
                seconds(duration), maxOperations, loadThreads, pid, table, seed, seconds(interval),
                seconds(clientWarmUp));
    }

    private static Duration seconds(double s) {
        return Duration.ofNanos((long) (s * 1e9));
    }

    TimedRun.Bounds bounds() {
        return new TimedRun.Bounds(warmUp, duration, maxOperations);
    }
}
