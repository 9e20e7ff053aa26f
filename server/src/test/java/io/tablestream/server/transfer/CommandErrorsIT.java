package io.tablestream.server.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import io.tablestream.cli.Main;
import io.tablestream.core.model.EmulatorAccount;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tablestream} command's failures in words — a missing file, a port where nothing
 * listens, an unknown host, a missing table, a typo in {@code --filter} at the user's position, an
 * interrupted import — each naming the file, host or table, never a Java exception; a failed export
 * leaves no file; and the commands that use Tablestream's extensions: {@code tail --endpoint} (the
 * HTTP change feed), {@code export --as-of} (a point-in-time snapshot), {@code delete --filter} and
 * {@code restore} (jobs, followed to their end).
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommandErrorsIT {
    @TempDir
    Path dir;
    private RunningServer server;

    @BeforeAll
    void server(RunningServer server) {
        this.server = server;
    }

    /** What a run printed and its exit status. */
    private record Run(int status, String out, String err) {
    }

    private Run runAgainst(String connectionString, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("-c", connectionString, "--progress", "none"));
        all.addAll(List.of(args));
        int status = Main.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                all.toArray(String[]::new));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Run run(String... args) {
        return runAgainst(server.connectionString(), args);
    }

    private static void assertPlain(Run r) {
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).doesNotContainPattern("[a-z]+\\.[a-z]+\\.[A-Za-z]*(Exception|Error)")
                .doesNotContain("Exception").doesNotContain("null");
    }

    private static String endpoint(String hostAndPort) {
        return EmulatorAccount.connectionString("http://" + hostAndPort + "/" + EmulatorAccount.NAME);
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nowhere.jsonl");
        Run r = run("import", TableNames.unique("NoFile"), "-i", missing.toString());
        assertPlain(r);
        assertThat(r.err()).contains("No such file: " + missing);
    }

    @Test
    void aPortWhereNothingListensIsNamedAtOnce() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        long begin = System.nanoTime();
        Run r = runAgainst(endpoint("127.0.0.1:" + port), "export", "Orders", "-o", dir.resolve("o.jsonl").toString());
        assertPlain(r);
        assertThat(r.err()).contains("Cannot connect to 127.0.0.1:" + port).contains("Is the server running");
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - begin)).as("no retries before the first answer")
                .isLessThan(10);
        assertThat(dir.resolve("o.jsonl")).doesNotExist();
    }

    @Test
    void anUnknownHostIsNamed() {
        Run r = runAgainst(endpoint("no-such-host.invalid:10002"), "count", "Orders");
        assertPlain(r);
        assertThat(r.err()).contains("Unknown host 'no-such-host.invalid'");
    }

    @Test
    void aMissingTableIsNamedAndTheFailedExportLeavesNoFile() throws IOException {
        String table = TableNames.unique("Missing");
        Path out = dir.resolve("missing.csv");
        Run r = run("export", table, "-o", out.toString());
        assertPlain(r);
        assertThat(r.err()).contains("The table " + table + " does not exist in the account devstoreaccount1 at "
                + server.endpoint());
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("missing"));
        }
    }

    @Test
    void aFilterTypoIsShownAtTheUsersPosition(TableServiceClient service) {
        String table = TableNames.unique("Typo");
        service.createTable(table);
        Path out = dir.resolve("typo.jsonl");
        Run r = run("export", table, "-o", out.toString(), "--filter", "Total gt 100.0 adn Count eq 1");
        assertPlain(r);
        assertThat(r.err()).contains("--filter is not a valid filter: Syntax error at position 15 of $filter")
                .contains("  Total gt 100.0 adn Count eq 1" + System.lineSeparator() + "                 ^");
        assertThat(out).doesNotExist();
        assertPlain(run("count", table, "--filter", "Total gt ("));
    }

    @Test
    void anInterruptedImportSaysHowFarItGotAndHowToResume() throws Exception {
        Path input = dir.resolve("big.jsonl");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            lines.append("{\"PartitionKey\":\"p").append(i % 100).append("\",\"RowKey\":\"r").append(i).append("\"}\n");
        }
        Files.writeString(input, lines);
        String table = TableNames.unique("Stopped");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "-c", server.connectionString(),
                "--progress", "none", "--checkpoint-interval-ms", "20", "import", table, "-i", input.toString(),
                "--parallel", "2");
        Path log = dir.resolve("stopped.log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Path checkpoint = dir.resolve("big.jsonl.import-" + table + ".progress");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(checkpoint) && p.isAlive() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
        p.destroy(); // SIGTERM, as Ctrl-C's SIGINT: the JVM runs its shutdown hooks
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String said = Files.readString(log);
        assertThat(said).containsPattern("Interrupted: [\\d,]+ entities of " + input + " written into " + table
                + "; the first [\\d,]+ of the file are all written\\. Run the same command again to resume from there");

        Run resumed = run("import", table, "-i", input.toString());
        assertThat(resumed.status()).as(resumed.err()).isZero();
        assertThat(resumed.err()).contains("Resuming the import into " + table);
        Run counted = run("count", table);
        assertThat(counted.out().strip()).isEqualTo("20000");
    }

    @Test
    void tailFollowsTheHttpChangeFeed(TableServiceClient service) {
        String table = TableNames.unique("TailHttp");
        TableClient client = service.createTable(table);
        client.createEntity(new TableEntity("p", "1").addProperty("Big", 1L << 40));
        client.deleteEntity("p", "1");

        Run r = run("tail", table, "--endpoint", "--from-beginning", "--max", "2");

        assertThat(r.status()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("{\"change\":\"inserted\",\"changedAt\":\"")
                .contains("\"entity\":{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"Timestamp\":\"")
                .contains("\"Big@odata.type\":\"Edm.Int64\",\"Big\":\"1099511627776\"").doesNotContain("odata.etag");
        assertThat(lines.get(1)).startsWith("{\"change\":\"deleted\"")
                .endsWith("\"entity\":{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}}");
        assertThat(r.err()).contains("Following the changes of " + table);
    }

    @Test
    void exportAsOfIsASnapshotOfTheTableThen(TableServiceClient service) throws IOException {
        String table = TableFixtures.givenTableWithHistory(server, 3600);
        TableClient client = service.getTableClient(table);
        client.createEntity(new TableEntity("p", "1").addProperty("Status", "open"));
        client.createEntity(new TableEntity("p", "2").addProperty("Status", "open"));
        String then = TableFixtures.aMomentBetweenWrites();
        client.updateEntity(new TableEntity("p", "1").addProperty("Status", "paid"), TableEntityUpdateMode.REPLACE);
        client.deleteEntity("p", "2");
        client.createEntity(new TableEntity("p", "3").addProperty("Status", "new"));
        Path out = dir.resolve("then.jsonl");

        Run r = run("export", table, "-o", out.toString(), "--as-of", then);

        assertThat(r.status()).as(r.err()).isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("\"RowKey\":\"1\"", "\"Status\":\"open\"");
        assertThat(lines.get(1)).contains("\"RowKey\":\"2\"", "\"Status\":\"open\"");
        Run wrong = run("export", table, "-o", out.toString(), "--as-of", "yesterday");
        assertPlain(wrong);
        assertThat(wrong.err()).contains("--as-of 'yesterday' is not a UTC time");
    }

    @Test
    void deleteByFilterAndRestoreRunAsJobsFollowedToTheirEnd(TableServiceClient service) {
        String table = TableNames.unique("JobsCli");
        TableClient client = service.createTable(table);
        for (int i = 0; i < 9; i++) {
            client.createEntity(new TableEntity(i % 3 == 0 ? "old" : "new", "r" + i));
        }

        Run deleted = run("delete", table, "--filter", "PartitionKey eq 'old'");
        assertThat(deleted.status()).as(deleted.err()).isZero();
        assertThat(deleted.out().strip()).isEqualTo("Deleted 3 entities of " + table);
        assertThat(deleted.err()).contains("Deleting the entities of " + table + " that match PartitionKey eq 'old' (job ");
        assertThat(client.listEntities().stream().map(TableEntity::getPartitionKey)).containsOnly("new").hasSize(6);

        String copy = TableNames.unique("JobsCliCopy");
        Run restored = run("restore", table, "--into", copy);
        assertThat(restored.status()).as(restored.err()).isZero();
        assertThat(restored.out().strip()).isEqualTo("Restored 6 entities of " + table + " into " + copy);
        assertThat(service.getTableClient(copy).listEntities().stream().count()).isEqualTo(6);

        Run taken = run("restore", table, "--into", copy);
        assertPlain(taken);
        assertThat(taken.err()).contains("Restoring " + table + " into " + copy + " was refused: 409 TableAlreadyExists");
        String missing = TableNames.unique("NoSuch");
        Run nothing = run("delete", missing, "--filter", "RowKey eq 'x'");
        assertPlain(nothing);
        assertThat(nothing.err()).contains("The table " + missing + " does not exist");
        assertPlain(run("delete", table, "--filter", "RowKey eq"));
    }
}
