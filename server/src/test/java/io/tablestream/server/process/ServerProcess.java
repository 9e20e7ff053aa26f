package io.tablestream.server.process;

import io.tablestream.core.model.EmulatorAccount;
import com.azure.data.tables.TableServiceClient;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableServiceClientBuilder;
import io.tablestream.server.Main;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.Setting;
import io.tablestream.server.TablestreamServerExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Tablestream {@link Main} in a JVM of its own, started from the test classpath, so a test can
 * {@link #kill()} it ({@code kill -9}: no shutdown hook, no flush, no goodbye to the group) or
 * {@link #stop()} it (SIGTERM) and start another on the same data directory. Settings are passed
 * as the environment variables of {@link Setting}; the child inherits no {@code TABLESTREAM_*}
 * or {@code KAFKA_BOOTSTRAP_SERVERS} variable from the test JVM. Everything the child prints goes
 * to a log file (kept across restarts, one section per start, under {@code target/server-processes}
 * and named after the test class that started it; never deleted by the test) and its last lines are
 * kept for assertion messages. A child that ends without the test having killed or stopped it says so
 * on the test's output, with its log's path; {@link ServerProcessLogs} adds every log's path and its
 * telling lines to a failed test's failure.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Pattern SERVING = Pattern.compile("serving the Table service at https?://([^:/]+):(\\d+)/");
    private static final Pattern BROKER_READY = Pattern.compile("Kafka broker ([^:\\s]+):(\\d+) \\(cluster .* ready in");
    private static final int TAIL_LINES = 200;
    /** Every child started in this JVM, in order, for {@link ServerProcessLogs}. */
    private static final List<ServerProcess> STARTED = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final Process process;
    private final Pattern ready;
    private final Path log;
    private final Deque<String> tail = new ArrayDeque<>();
    private final CompletableFuture<Integer> serving = new CompletableFuture<>();
    private final long startedNanos;
    private volatile long servingNanos;
    /** Set before the test ends the child itself, so its end is not reported as unexpected. */
    private volatile boolean endExpected;
    private volatile boolean endedUnexpectedly;
    /** The address it serves at, as its "serving" line names it. */
    private volatile String host = "127.0.0.1";

    private ServerProcess(Process process, Pattern ready, Path log, long startedNanos) {
        this.process = process;
        this.ready = ready;
        this.log = log;
        this.startedNanos = startedNanos;
    }

    /** Starts describing a child server whose state lives in {@code dataDir}. */
    public static Builder builder(Path dataDir) {
        return new Builder(dataDir, Main.class.getName(), List.of(), SERVING);
    }

    /**
     * Starts describing a child JVM running only a Kafka broker (the embedded one, standalone) with
     * its data in {@code dataDir}; {@link #awaitServing} then answers its client port, which it keeps
     * across restarts on the same directory.
     */
    public static Builder broker(Path dataDir) {
        return new Builder(dataDir, "io.tablestream.kafka.embedded.StandaloneBroker",
                List.of("--data-dir", dataDir.toAbsolutePath().toString()), BROKER_READY);
    }

    /** The child's process id, for {@code kill} from a shell. */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until the child serves HTTP; returns its port. Fails (with the child's last lines) if it exits first. */
    public int awaitServing(Duration timeout) {
        try {
            return serving.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("The server did not serve within " + timeout + " (its log: " + log
                    + "); its last lines:\n" + tail(), e);
        } catch (ExecutionException e) {
            throw new AssertionError("The server ended before serving (exit " + exitStatus() + ", its log: " + log
                    + "); its last lines:\n" + tail(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for the server", e);
        }
    }

    /** The HTTP port; only after {@link #awaitServing}. */
    public int port() {
        return serving.getNow(-1);
    }

    /** From the start of the JVM to its "serving" line; only after {@link #awaitServing}. */
    public Duration startedIn() {
        return Duration.ofNanos(servingNanos - startedNanos);
    }

    /** The address it serves at (its bind address; loopback for a wildcard bind); only after {@link #awaitServing}. */
    public String host() {
        return host;
    }

    public String endpoint() {
        return "http://" + host + ":" + port() + "/devstoreaccount1";
    }

    public String connectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
                + EmulatorAccount.KEY + ";TableEndpoint=" + endpoint() + ";";
    }

    /** An official SDK client for this server. */
    public TableServiceClient client() {
        return new TableServiceClientBuilder().connectionString(connectionString()).buildClient();
    }

    /**
     * An official SDK client that never retries, so every failure the server answers is seen (the
     * default client retries 503s and connection failures, hiding how long they lasted).
     */
    public TableServiceClient clientWithoutRetries() {
        return new TableServiceClientBuilder().connectionString(connectionString())
                .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1)))).buildClient();
    }

    /**
     * A TCP port free right now on 127.0.0.1, for a server that must know its address before it
     * starts (the advertised address of a cluster instance). Another process may take it first; a
     * test that starts several servers picks all their ports before starting any.
     */
    public static int freePort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code kill -9}: the JVM ends at once, whatever it was doing. Returns once it is gone. */
    public void kill() {
        endExpected = true;
        // the handle's signal leaves the output pipe open, so the child's last lines are kept
        // (Process.destroy* closes it at once)
        process.toHandle().destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** SIGTERM, then waits for the process to end; returns its exit status. */
    public int stop(Duration timeout) {
        endExpected = true;
        process.toHandle().destroy(); // SIGTERM, output still read: the shutdown's lines are kept
        return awaitExit(timeout);
    }

    /** SIGTERM with a minute to stop. */
    public int stop() {
        return stop(Duration.ofMinutes(1));
    }

    /** Waits for the process to end by itself (killing it if it has not within {@code timeout}); its exit status. */
    public int awaitExit(Duration timeout) {
        endExpected = true;
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.toHandle().destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
                throw new AssertionError("The server did not exit within " + timeout + "; its last lines:\n" + tail());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for the server to exit", e);
        }
    }

    private String exitStatus() {
        return process.isAlive() ? "none yet" : Integer.toString(process.exitValue());
    }

    /** The child's last lines of output. */
    public String tail() {
        synchronized (tail) {
            return String.join("\n", tail);
        }
    }

    /** Every line the child printed so far that contains {@code text}. */
    public List<String> linesContaining(String text) {
        List<String> found = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (line.contains(text)) {
                    found.add(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    public Path logFile() {
        return log;
    }

    /** How many children this JVM has started so far: a mark for {@link #startedSince}. */
    static int startedCount() {
        return STARTED.size();
    }

    /** The children started since {@code mark} ({@link #startedCount}), in order. */
    static List<ServerProcess> startedSince(int mark) {
        return List.copyOf(STARTED.subList(Math.min(mark, STARTED.size()), STARTED.size()));
    }

    /** Whether the child ended without the test killing or stopping it. */
    boolean endedUnexpectedly() {
        return endedUnexpectedly;
    }

    /** "running" or its exit status. */
    String state() {
        return process.isAlive() ? "running" : "exit " + process.exitValue();
    }

    /** Kills the child if it still runs. */
    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    private void pump(Writer out) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); out) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                out.write(line);
                out.write('\n');
                out.flush();
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
                if (!serving.isDone()) {
                    Matcher m = ready.matcher(line);
                    if (m.find()) {
                        servingNanos = System.nanoTime();
                        host = m.group(1);
                        serving.complete(Integer.parseInt(m.group(2)));
                    }
                }
            }
        } catch (IOException e) {
            // the child is gone; what it printed is in the log file
        }
        serving.completeExceptionally(new IllegalStateException("The server's output ended"));
        if (!endExpected) {
            endedUnexpectedly = true;
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            System.err.println("Server process " + process.pid() + " ended without the test ending it (" + state()
                    + "); its log: " + log);
        }
    }

    /** The simple name of the test class starting a child, and a dash; empty when none is on the stack. */
    private static String testClassName() {
        return StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
                .filter(name -> name.endsWith("IT") || name.endsWith("Test")).findFirst()
                .map(name -> name.substring(name.lastIndexOf('.') + 1) + "-").orElse(""));
    }

    /** What to start. */
    public static final class Builder {
        private final Path dataDir;
        private String mainClass;
        private final List<String> arguments;
        private final Pattern ready;
        private final Map<String, String> environment = new LinkedHashMap<>();
        private final List<String> jvmOptions = new ArrayList<>(List.of("-Xmx768m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1"));
        private final List<String> launcher = new ArrayList<>();
        private Path log;

        private Builder(Path dataDir, String mainClass, List<String> arguments, Pattern ready) {
            this.dataDir = dataDir.toAbsolutePath();
            this.mainClass = mainClass;
            this.arguments = arguments;
            this.ready = ready;
            environment.put("TABLESTREAM_DATA_DIR", this.dataDir.toString());
            environment.put("TABLESTREAM_PORT", "0");
        }

        /** Sets one server setting (as its environment variable). */
        public <T> Builder with(Setting<T> setting, Object value) {
            environment.put(setting.environmentVariable(), String.valueOf(value));
            return this;
        }

        /** Sets an environment variable of the child, e.g. a pass-through Kafka setting ({@code TABLESTREAM_KAFKA_<NAME>}). */
        public Builder environment(String variable, String value) {
            environment.put(variable, value);
            return this;
        }

        /** Adds a JVM option, e.g. {@code -Xmx1g} (replacing a default of the same kind is the caller's care). */
        public Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        /**
         * Runs {@code main} instead of {@link Main}: a test's own entry point that starts the server
         * differently (e.g. with a fault injected). It must print the same "serving" line.
         */
        public Builder mainClass(Class<?> main) {
            this.mainClass = main.getName();
            return this;
        }

        /**
         * Words run before {@code java}, which must end by running it in the same process (e.g. {@code ip
         * netns exec <name>}, see {@code NetworkNamespace#launcher}).
         */
        public Builder launcher(List<String> words) {
            launcher.clear();
            launcher.addAll(words);
            return this;
        }

        /** Where the child's output goes; {@code target/server-processes/<test class>-<dataDir name>.log} by default. */
        public Builder log(Path file) {
            this.log = file;
            return this;
        }

        /** Starts the child (it begins serving later: see {@link ServerProcess#awaitServing}). */
        public ServerProcess start() {
            Path logFile = log != null ? log : Path.of("target", "server-processes", testClassName()
                    + dataDir.getFileName() + ".log").toAbsolutePath();
            List<String> command = new ArrayList<>(launcher);
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            // The child's temporary files (RocksDB unpacks its native library there, 15 MiB, removed only at a
            // normal exit, and children are killed) go under target/, beside its log, not into /tmp (nor
            // into its data directory: a child may be a broker, whose log directory holds topics alone).
            Path tmp = Path.of("target", "server-processes", dataDir.getFileName() + ".tmp").toAbsolutePath();
            command.add("-Djava.io.tmpdir=" + tmp);
            command.addAll(jvmOptions);
            // For a post-mortem: e.g. -DserverProcess.jvmOptions=-Dlogback.configurationFile=logback-child-debug.xml
            String extra = System.getProperty("serverProcess.jvmOptions", "").strip();
            if (!extra.isEmpty()) {
                command.addAll(List.of(extra.split("\\s+")));
            }
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(mainClass);
            command.addAll(arguments);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().keySet().removeIf(k -> k.startsWith("TABLESTREAM_")
                    || k.equals("KAFKA_BOOTSTRAP_SERVERS"));
            builder.environment().putAll(environment);
            // no warm-up before ready unless a test asks for one: it would add its seconds to every start; none
            // after ready either: it would share the child's first seconds with the test's own requests
            builder.environment().putIfAbsent(ServerSettings.WARM_UP_SECONDS.environmentVariable(), "0");
            builder.environment().putIfAbsent(ServerSettings.WARM_UP_AFTER_READY_SECONDS.environmentVariable(), "0");
            try {
                Files.createDirectories(dataDir);
                Files.createDirectories(tmp);
                Files.createDirectories(logFile.getParent());
                Writer out = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                out.write("==== start " + java.time.Instant.now() + " " + environment + "\n");
                long begin = System.nanoTime();
                ServerProcess child = new ServerProcess(builder.start(), ready, logFile, begin);
                STARTED.add(child);
                Thread pump = new Thread(() -> child.pump(out), "server-" + child.pid() + "-output");
                pump.setDaemon(true);
                pump.start();
                return child;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start a server process", e);
            }
        }
    }
}
