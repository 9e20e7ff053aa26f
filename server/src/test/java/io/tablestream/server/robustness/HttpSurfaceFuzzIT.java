package io.tablestream.server.robustness;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServiceErrors;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A bounded, seeded fuzz of the whole HTTP surface against the real server ({@link RequestFuzzer}
 * makes the requests: JSON bodies, {@code $filter}, keys and percent-encodings, multipart batches,
 * headers, raw framing). It fails when any answer is a 5xx, when a 4xx lacks the service's error
 * ({@code x-ms-error-code}, {@code x-ms-request-id}, an {@code odata.error} body naming the same
 * code), when the server closes a kept-alive connection without having said {@code Connection:
 * close}, when a request gets no answer (and its connection is not closed) within
 * {@value #ANSWER_WITHIN_SECONDS} s, and when a row seeded before the fuzz does not read back
 * byte for byte unchanged after it.
 *
 * <p>The 5xx accepted are {@code 501 NotImplemented}, the answer to the operations the service
 * documents it lacks (Get Table Service Stats, a query inside {@code $batch}), counted; and a
 * {@code 503 ServerBusy} with {@code Retry-After} that is transient, printed: the server's own answer
 * when it is momentarily unable to serve a request (a write whose outcome did not come within
 * {@code write-timeout-ms}, a partition being restored), which a stall of a loaded machine gives the
 * request then in flight. Such a request is sent again, as an SDK retries it, at most
 * {@value #BUSY_RETRIES} times after {@code Retry-After}, and must then get an answer that is not a
 * 5xx: a request busy because of what it holds, or one that wedged its partition, stays busy and fails
 * this.
 *
 * <p>How long a request may go unanswered ({@value #ANSWER_WITHIN_SECONDS} s, Azure's longest server
 * timeout for a Table operation) is longer than any bound the server sets itself (a write waits
 * {@code write-timeout-ms}, 10 s, for its outcome once the log has it, and the log's producer takes
 * a record within {@code max.block.ms}, 10 s), so a request the server answers late but within its
 * own bounds is reported with the answer it got, and only a request it never answers as a hang. It
 * costs nothing while the server answers.
 *
 * <p>{@code -Dfuzz.seed=<n>} replays a run (the seed is printed, and named in every failure; the
 * tables' names have a fixed length, so that the same seed makes the same requests wherever the test
 * runs in the suite); {@code -Dfuzz.cases=<n>} sets how many requests (default {@value #DEFAULT_CASES}).
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class HttpSurfaceFuzzIT {
    private static final int DEFAULT_CASES = 2000;
    private static final int ANSWER_WITHIN_SECONDS = 30;
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(ANSWER_WITHIN_SECONDS);
    private static final int MAX_REPORTED = 15;
    private static final int BUSY_RETRIES = 3;

    private final long seed = Long.getLong("fuzz.seed", new SecureRandom().nextLong());
    private final int cases = Integer.getInteger("fuzz.cases", DEFAULT_CASES);
    private final List<String> failures = new ArrayList<>();
    private final Map<RequestFuzzer.Kind, Map<Integer, Integer>> statuses = new EnumMap<>(RequestFuzzer.Kind.class);
    private final List<String> busy = new ArrayList<>();
    private int serverErrors;
    private int notImplemented;
    private int closedWithoutAnswer;

    @Test
    void noHostileRequestGetsA5xxHangsOrLosesARow(RunningServer server) {
        System.out.printf("HttpSurfaceFuzzIT: seed %d, %d cases (replay with -Dfuzz.seed=%d)%n", seed, cases, seed);
        RawTableClient client = RawTableClient.to(server);
        String seedTable = TableNames.unique("FuzzSeed", 20);
        String playground = TableNames.unique("FuzzPlay", 20);
        List<SeededRow> seeded = seedRows(server.client().createTable(seedTable), client, seedTable);
        server.client().createTable(playground);
        List<String[]> seedKeys = new ArrayList<>();
        for (SeededRow row : seeded) {
            seedKeys.add(new String[] {row.partitionKey(), row.rowKey()});
        }
        RequestFuzzer fuzzer = new RequestFuzzer(new Random(seed), client, seedTable, seedKeys, playground,
                TableNames.unique("Fz", 14) + "t");

        long start = System.nanoTime();
        RawTableClient.Connection connection = null;
        RequestFuzzer.Case previous = null;
        for (int n = 0; n < cases; n++) {
            RequestFuzzer.Case c = fuzzer.next();
            if (!c.framed()) {
                sendAlone(client, c);
                continue;
            }
            if (connection == null) {
                connection = client.connect().timeout(ANSWER_WITHIN);
                previous = null;
            }
            Exchange answer = exchange(connection, c);
            if (answer.response() == null && answer.closedBeforeAnswering() && previous != null) {
                // Closed after the previous answer, or because of this request? Replay both apart to tell.
                connection.close();
                if (closesAfterAnswering(client, previous)) {
                    fail(previous, "the server then closed the kept-alive connection without having said Connection:"
                            + " close");
                }
                connection = client.connect().timeout(ANSWER_WITHIN);
                answer = exchange(connection, c);
            }
            if (answer.response() == null) {
                if (answer.closedBeforeAnswering() && !answer.written()) {
                    // refused before all of it was sent (a head the server cannot parse): its answer, if any,
                    // went down with the connection
                    closedWithoutAnswer++;
                    count(c, 0);
                } else {
                    fail(c, answer.problem());
                }
                connection.close();
                connection = null;
                continue;
            }
            check(client, c, answer.response());
            previous = c;
            if ("close".equalsIgnoreCase(answer.response().header("Connection"))) {
                connection.close();
                connection = null;
            }
        }
        if (connection != null) {
            connection.close();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("HttpSurfaceFuzzIT: seed %d: %d cases in %d ms; 5xx: %d; 501 NotImplemented: %d;"
                        + " 503 ServerBusy: %d; connections closed without an answer: %d; failures: %d%n"
                        + "  statuses by kind: %s%n%s",
                seed, cases, millis, serverErrors, notImplemented, busy.size(), closedWithoutAnswer, failures.size(),
                statuses, String.join("", busy));

        assertSeededRowsUnchanged(client, seeded);
        assertThat(client.send("POST", playground, "{\"PartitionKey\":\"after\",\"RowKey\":\"fuzz\"}").status())
                .as("the server still takes writes").isEqualTo(201);
        assertThat(failures).as("seed %d (replay with -Dfuzz.seed=%d): %d failures, the first %d:%n%s", seed, seed,
                failures.size(), Math.min(MAX_REPORTED, failures.size()),
                String.join("\n", failures.subList(0, Math.min(MAX_REPORTED, failures.size())))).isEmpty();
        assertThat(serverErrors).isZero();
    }

    /**
     * An answer read off a connection, or why there is none; whether the request was written whole
     * (the server may close a connection while a request it refuses is still being sent).
     */
    private record Exchange(RawTableClient.Response response, String problem, boolean closedBeforeAnswering,
                            boolean written) {
        Exchange unwritten() {
            return new Exchange(response, problem, closedBeforeAnswering, false);
        }
    }

    private static Exchange exchange(RawTableClient.Connection connection, RequestFuzzer.Case c) {
        try {
            connection.write(c.wire());
        } catch (UncheckedIOException e) {
            return readFinal(connection).unwritten(); // read what the server said before it stopped reading
        }
        return readFinal(connection);
    }

    /**
     * Whether {@code c}, sent again on a connection of its own, is answered without {@code Connection:
     * close} and yet leaves a connection the next request cannot use.
     */
    private static boolean closesAfterAnswering(RawTableClient client, RequestFuzzer.Case c) {
        try (RawTableClient.Connection connection = client.connect().timeout(ANSWER_WITHIN)) {
            Exchange answer = exchange(connection, c);
            if (answer.response() == null || "close".equalsIgnoreCase(answer.response().header("Connection"))) {
                return false;
            }
            Exchange next = exchange(connection, new RequestFuzzer.Case(-1, c.kind(), "next",
                    client.get("Tables").toKeepAliveBytes(), true));
            return next.response() == null && next.closedBeforeAnswering();
        }
    }

    /** The next final (not 1xx) answer on {@code connection}. */
    private static Exchange readFinal(RawTableClient.Connection connection) {
        try {
            while (true) {
                RawTableClient.Response r = connection.read();
                if (r.status() >= 200) {
                    return new Exchange(r, null, false, true);
                }
            }
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof SocketTimeoutException) {
                return new Exchange(null, "no answer within " + ANSWER_WITHIN_SECONDS + " s, connection still open", false,
                        true);
            }
            return new Exchange(null, "the connection failed: " + e.getCause(), true, true);
        } catch (IllegalStateException e) {
            boolean nothing = e.getMessage().contains("after 0 bytes");
            return new Exchange(null, nothing ? "closed without an answer" : "an incomplete answer: " + e.getMessage(),
                    nothing, true);
        }
    }

    /**
     * A request whose framing is broken, on a connection of its own: write it, close the sending
     * half, and read every answer until the server closes the connection.
     */
    private void sendAlone(RawTableClient client, RequestFuzzer.Case c) {
        try (RawTableClient.Connection connection = client.connect().timeout(ANSWER_WITHIN)) {
            try {
                connection.write(c.wire()).halfClose();
            } catch (UncheckedIOException e) {
                // the server answered and closed before taking all of it: read what it said
            }
            for (int answers = 0; answers < 5; answers++) {
                Exchange answer = readFinal(connection);
                if (answer.response() == null) {
                    if (answer.closedBeforeAnswering()) {
                        if (answers == 0) {
                            closedWithoutAnswer++;
                            count(c, 0);
                        }
                    } else {
                        fail(c, answer.problem());
                    }
                    return;
                }
                check(client, c, answer.response());
            }
        }
    }

    private void check(RawTableClient client, RequestFuzzer.Case c, RawTableClient.Response r) {
        count(c, r.status());
        if (r.status() == 501 && "NotImplemented".equals(r.errorCode())) {
            notImplemented++;
        } else if (isBusy(r)) {
            String problem = errorShapeProblem(r);
            if (problem != null) {
                fail(c, problem + ": " + r);
            }
            String again = servedWhenSentAgain(client, c, r);
            if (again == null) {
                serverErrors++;
                fail(c, "answered " + r + ", and 503 ServerBusy each of the " + BUSY_RETRIES + " times it was sent again");
            } else {
                busy.add("  busy: " + c.printable() + "\n      -> " + r + "\n      sent again: " + again + "\n");
            }
        } else if (r.status() >= 500) {
            serverErrors++;
            fail(c, "answered " + r);
        } else if (r.status() >= 400) {
            String problem = errorShapeProblem(r);
            if (problem != null) {
                fail(c, problem + ": " + r);
            }
        }
    }

    private static boolean isBusy(RawTableClient.Response r) {
        return r.status() == 503 && "ServerBusy".equals(r.errorCode()) && r.header("Retry-After") != null;
    }

    /**
     * Sends {@code c} again, after {@code busy}'s Retry-After, until it is answered other than 503
     * ServerBusy ({@value #BUSY_RETRIES} times at most): that answer's status (a later 5xx is checked
     * as any answer), or null when it stayed busy.
     */
    private String servedWhenSentAgain(RawTableClient client, RequestFuzzer.Case c, RawTableClient.Response busy) {
        RawTableClient.Response last = busy;
        for (int attempt = 0; attempt < BUSY_RETRIES; attempt++) {
            try {
                // the delay the server asks for before a retry (a protocol rule, not a wait for a condition)
                Thread.sleep(Duration.ofSeconds(Long.parseLong(last.header("Retry-After").strip())).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            try (RawTableClient.Connection connection = client.connect().timeout(ANSWER_WITHIN)) {
                if (!c.framed()) {
                    connection.write(c.wire()).halfClose();
                } else {
                    connection.write(c.wire());
                }
                Exchange answer = readFinal(connection);
                if (answer.response() == null) {
                    fail(c, "sent again after 503 ServerBusy: " + answer.problem());
                    return answer.problem();
                }
                last = answer.response();
            } catch (UncheckedIOException e) {
                fail(c, "sent again after 503 ServerBusy: the connection failed: " + e.getCause());
                return "the connection failed";
            }
            if (!isBusy(last)) {
                if (last.status() >= 500 && last.status() != 501) {
                    serverErrors++;
                    fail(c, "sent again after 503 ServerBusy, answered " + last);
                }
                return Integer.toString(last.status());
            }
        }
        return null;
    }

    /** Why {@code r} is not the service's error, or null when it is. */
    private static String errorShapeProblem(RawTableClient.Response r) {
        if (r.header("x-ms-request-id") == null) {
            return "a " + r.status() + " without x-ms-request-id";
        }
        String code = r.errorCode();
        if (code == null) {
            return "a " + r.status() + " without x-ms-error-code";
        }
        if (r.bytes().length == 0) {
            return null; // HEAD and preflight errors have no body
        }
        String type = String.valueOf(r.header("Content-Type")).toLowerCase(Locale.ROOT);
        if (type.startsWith("application/xml")) {
            return r.body().contains("<Code>" + code + "</Code>") ? null : "an XML error body not naming " + code;
        }
        try {
            String inBody = ServiceErrors.odataError(r.bytes()).get("code");
            return code.equals(inBody) ? null : "odata.error names " + inBody + ", x-ms-error-code " + code;
        } catch (AssertionError | RuntimeException e) {
            return "not an odata.error body (" + e.getMessage() + ")";
        }
    }

    private void count(RequestFuzzer.Case c, int status) {
        statuses.computeIfAbsent(c.kind(), k -> new TreeMap<>()).merge(status, 1, Integer::sum);
    }

    private void fail(RequestFuzzer.Case c, String what) {
        failures.add("  " + c.printable() + "\n      -> " + what);
    }

    // ------------------------------------------------------------------ the rows that must survive

    /** A row seeded before the fuzz: its keys, its path, and its body as first read. */
    private record SeededRow(String partitionKey, String rowKey, String path, String body) {
    }

    /** Seeds rows of every type, with awkward keys, and reads each back once. */
    private static List<SeededRow> seedRows(TableClient table, RawTableClient client, String tableName) {
        String[] partitionKeys = {"p1", "it's", "a b%"};
        String[] rowKeys = {"r1", "é€😀", "x;y=z", "(paren)", "100%", "plus+sign", "''", "tab\u00a0space"};
        List<SeededRow> seeded = new ArrayList<>();
        int n = 0;
        for (String pk : partitionKeys) {
            for (String rk : rowKeys) {
                table.createEntity(new TableEntity(pk, rk)
                        .addProperty("Name", "row " + n)
                        .addProperty("Count", n)
                        .addProperty("Big", (1L << 40) + n)
                        .addProperty("Ratio", n / 3.0)
                        .addProperty("Flag", n % 2 == 0)
                        .addProperty("When", OffsetDateTime.of(2024, 5, 6, 7, 8, 9, n * 100, ZoneOffset.UTC))
                        .addProperty("Id", new UUID(n, n))
                        .addProperty("Blob", new byte[] {(byte) n, 2, 3}));
                String path = tableName + "(PartitionKey=%27" + RawTableClient.encode(pk.replace("'", "''"))
                        + "%27,RowKey=%27" + RawTableClient.encode(rk.replace("'", "''")) + "%27)";
                RawTableClient.Response r = client.read(path, "Accept", "application/json;odata=fullmetadata");
                assertThat(r.status()).as("%s", r).isEqualTo(200);
                seeded.add(new SeededRow(pk, rk, path, r.body()));
                n++;
            }
        }
        return seeded;
    }

    private void assertSeededRowsUnchanged(RawTableClient client, List<SeededRow> seeded) {
        for (SeededRow row : seeded) {
            RawTableClient.Response now = client.read(row.path(), "Accept", "application/json;odata=fullmetadata");
            assertThat(now.status()).as("seed %d: seeded row %s after the fuzz: %s", seed, row.path(), now)
                    .isEqualTo(200);
            assertThat(now.body()).as("seed %d: seeded row %s after the fuzz", seed, row.path()).isEqualTo(row.body());
        }
    }
}
