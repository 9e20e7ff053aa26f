package io.tablestream.server.transfer;

import static io.tablestream.testsupport.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.cli.Main;
import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.odata.EntityBody;
import io.tablestream.core.odata.EntityJsonWriter;
import io.tablestream.core.odata.ODataJsonReader;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.testsupport.KafkaExtension;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tablestream} command against a running server: entities holding every Edm type at its
 * extremes (and sparse ones, and keys that need escaping) go into a table by {@code import}, out by
 * {@code export} to JSON Lines and to CSV, into other tables, and out again — and come back exactly,
 * typed value for typed value; the SDK reads the same typed values; an export and an import killed
 * half-way finish when run again, each entity there exactly once. {@code -Dtransfer.entities=100000}
 * runs the round trip with more entities (default 20,000: the suite shares two cores).
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ImportExportIT {
    private static final int ENTITIES = Integer.getInteger("transfer.entities", 20_000);
    private static final String[] PARTITION_KEYS = {"plain", "with space", "quote'd", "plus+and&equals=", "per%cent",
            "ünïcødé", "emoji \uD83D\uDE00", "comma,semi;colon"};

    @TempDir
    Path dir;
    private RunningServer server;
    private Path source;
    private List<Entity> expected;
    /** The source file imported once, by the command, for the tests that only read a table of it. */
    private String imported;

    @BeforeAll
    void writeSourceFileAndImportIt(RunningServer server) throws IOException {
        this.server = server;
        this.expected = entities(ENTITIES);
        this.source = Files.createTempFile("transfer-source", ".jsonl");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(source))) {
            for (Entity e : expected) {
                EntityJsonWriter.writeSelfDescribing(out, e);
                out.write('\n');
            }
        }
        imported = TableNames.unique("Imported");
        long begin = System.nanoTime();
        tablestream("import", imported, "-i", source.toString());
        System.out.printf("%,d entities: import %.1f s%n", ENTITIES, (System.nanoTime() - begin) / 1e9);
    }

    @AfterAll
    void deleteSourceFile() throws IOException {
        Files.deleteIfExists(source);
    }

    /** Runs the command against the test server; asserts it succeeded. */
    private void tablestream(String... args) {
        tablestream(System.out, args);
    }

    private void tablestream(java.io.PrintStream out, String... args) {
        List<String> all = new ArrayList<>(List.of("-c", server.connectionString(), "--progress", "none"));
        all.addAll(List.of(args));
        assertThat(Main.run(out, System.err, all.toArray(String[]::new))).as("tablestream %s", all).isZero();
    }

    @Test
    void everyEdmTypeRoundTripsExactlyThroughJsonLinesAndCsv(TableServiceClient service) throws IOException {
        String first = imported;
        String second = TableNames.unique("FromCsv");
        Path lines = dir.resolve("first.jsonl");
        Path csv = dir.resolve("first.csv");
        Path again = dir.resolve("again.jsonl");

        long begin = System.nanoTime();
        tablestream("export", first, "-o", lines.toString());
        long exported = System.nanoTime();
        tablestream("export", first, "-o", csv.toString(), "--split", "m,q");
        tablestream("import", second, "-i", csv.toString());
        tablestream("export", second, "-o", again.toString(), "--split", "e,p,u");
        System.out.printf("%,d entities: export %.1f s%n", ENTITIES, (exported - begin) / 1e9);

        assertSameEntities(read(lines), "exported JSON Lines");
        assertSameEntities(sorted(read(again)), "through CSV into another table and out again (ranges in parallel)");
        assertThat(Files.readAllLines(lines)).allSatisfy(l -> assertThat(l).contains("\"Timestamp\":\""));
        assertTheServiceHoldsTheTypes(service.getTableClient(first));
        assertTheServiceHoldsTheTypes(service.getTableClient(second));
    }

    @Test
    void aFilteredExportHoldsWhatTheFilterSelects() throws IOException {
        String table = imported;
        Path out = dir.resolve("filtered.jsonl");

        tablestream("export", table, "-o", out.toString(), "--filter", "Int32 ge 0 and PartitionKey eq 'plain'");

        assertSameEntities(read(out), expected.stream().filter(e -> e.partitionKey().equals("plain")
                && e.property("Int32") instanceof EdmInt32 i && i.value() >= 0).toList(), "filtered");
    }

    @Test
    void anExportKilledHalfWayResumesAndHoldsEveryEntityOnce() throws Exception {
        String table = imported;
        Path out = dir.resolve("killed.jsonl");

        killWhenCheckpointed(out.resolveSibling("killed.jsonl.progress"), "export", table, "-o", out.toString(),
                "--split", "f,p");
        tablestream("export", table, "-o", out.toString(), "--split", "f,p");

        assertSameEntities(sorted(read(out)), "resumed export");
        assertThat(out.resolveSibling("killed.jsonl.progress")).doesNotExist();
    }

    @Test
    void anImportKilledHalfWayResumesAndWritesEveryEntity() throws Exception {
        String table = TableNames.unique("ResumedIn");
        Path out = dir.resolve("resumed-in.jsonl");
        Path checkpoint = source.resolveSibling(source.getFileName() + ".import-" + table + ".progress");

        killWhenCheckpointed(checkpoint, "import", table, "-i", source.toString(), "--parallel", "2");
        tablestream("import", table, "-i", source.toString());
        tablestream("export", table, "-o", out.toString());

        assertSameEntities(read(out), "resumed import");
        assertThat(checkpoint).doesNotExist();
    }

    @Test
    void countAndTablesAnswer() throws IOException {
        String table = imported;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        java.io.PrintStream out = new java.io.PrintStream(captured, true, StandardCharsets.UTF_8);
        tablestream(out, "count", table);
        tablestream(out, "count", table, "--filter", "PartitionKey eq 'plain'", "--split", "m");
        tablestream(out, "tables", "--prefix", table);
        long plain = expected.stream().filter(e -> e.partitionKey().equals("plain")).count();
        assertThat(captured.toString(StandardCharsets.UTF_8).lines().toList())
                .containsExactly(Integer.toString(ENTITIES), Long.toString(plain), table);
    }

    @Test
    void tailPrintsATablesChangesFromTheChangeFeed(TableServiceClient service) throws IOException {
        String table = TableNames.unique("Tailed");
        TableClient client = service.createTable(table);
        client.createEntity(new TableEntity("p", "1").addProperty("Big", 1L << 40));
        client.deleteEntity("p", "1");
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();

        tablestream(new java.io.PrintStream(captured, true, StandardCharsets.UTF_8), "tail", table, "--from-beginning",
                "--max", "2", "--bootstrap-servers", server.server().bootstrapServers(), "--topic-prefix",
                server.server().processor().topics().prefix());

        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("{\"change\":\"inserted\",\"changedAt\":\"")
                .contains("\"entity\":{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"Timestamp\":\"")
                .endsWith("\"Big@odata.type\":\"Edm.Int64\",\"Big\":\"1099511627776\"}}");
        assertThat(lines.get(1)).startsWith("{\"change\":\"deleted\"")
                .endsWith("\"entity\":{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}}");
    }

    @Test
    void aRefusedEntityStopsTheImportNamingItsLine() throws IOException {
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"N\":1}\n"
                + "{\"PartitionKey\":\"p\",\"RowKey\":\"2\",\"Big@odata.type\":\"Edm.Int64\",\"Big\":\"not a number\"}\n");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int status = Main.run(System.out, new java.io.PrintStream(err, true, StandardCharsets.UTF_8), "-c",
                server.connectionString(), "--progress", "none", "import", TableNames.unique("Bad"), "-i", bad.toString());
        assertThat(status).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("line 2").contains("InvalidInput");
    }

    /**
     * Runs the command in a process of its own, checkpointing often, and kills it ({@code kill -9}) once
     * its checkpoint says it got somewhere; fails if it finished first.
     */
    private void killWhenCheckpointed(Path checkpoint, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "-c", server.connectionString(),
                "--progress", "none", "--checkpoint-interval-ms", "20"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("killed-" + args[0] + ".log").toFile()).start();
        try {
            eventually(args[0] + " checkpointed", () -> {
                if (!p.isAlive()) {
                    throw new AssertionError(args[0] + " ended before a checkpoint showed progress: "
                            + Files.readString(dir.resolve("killed-" + args[0] + ".log")));
                }
                return progressed(checkpoint);
            }, Duration.ofSeconds(120));
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } finally {
            p.destroyForcibly();
        }
    }

    private static boolean progressed(Path checkpoint) {
        Properties p = new Properties();
        try (var in = Files.newInputStream(checkpoint)) {
            p.load(in);
        } catch (IOException e) {
            return false;
        }
        long n = Long.parseLong(p.getProperty("entities", "0"));
        return n > 0 && n < ENTITIES;
    }

    private void assertSameEntities(List<Entity> actual, String what) {
        assertSameEntities(actual, expected, what);
    }

    /** Equal lists of entities; else the first difference, briefly (values can be 30,000 characters long). */
    private static void assertSameEntities(List<Entity> actual, List<Entity> expected, String what) {
        for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
            Entity a = actual.get(i);
            Entity e = expected.get(i);
            if (!a.equals(e)) {
                Map<String, String> differences = new java.util.TreeMap<>();
                java.util.Set<String> names = new java.util.TreeSet<>(a.properties().keySet());
                names.addAll(e.properties().keySet());
                for (String name : names) {
                    if (!java.util.Objects.equals(a.property(name), e.property(name))) {
                        differences.put(name, brief(a.property(name)) + " instead of " + brief(e.property(name)));
                    }
                }
                throw new AssertionError(what + ": entity " + i + " (" + e.partitionKey() + " / " + e.rowKey()
                        + ") differs: keys " + a.partitionKey() + " / " + a.rowKey() + ", " + differences);
            }
        }
        assertThat(actual.size()).as(what + ": entities").isEqualTo(expected.size());
    }

    private static String brief(Object o) {
        String s = String.valueOf(o);
        return s.length() > 120 ? s.substring(0, 120) + "...(" + s.length() + ")" : s;
    }

    /** The SDK reads what the file held, as the Java types of its Edm types, for entities of every kind. */
    private void assertTheServiceHoldsTheTypes(TableClient table) {
        for (Entity e : expected.subList(0, 40)) {
            TableEntity got = table.getEntity(e.partitionKey(), e.rowKey());
            assertThat(got.getProperties().keySet().stream().filter(k -> !k.equals("PartitionKey") && !k.equals("RowKey")
                    && !k.equals("Timestamp") && !k.startsWith("odata.") && !k.contains("@odata."))).containsExactlyInAnyOrderElementsOf(
                    e.properties().keySet());
            e.properties().forEach((name, value) -> {
                Object sdk = got.getProperty(name);
                switch (value.type()) {
                    case STRING -> assertThat(sdk).isEqualTo(((EdmString) value).value());
                    case INT32 -> assertThat(sdk).isEqualTo(((EdmInt32) value).value());
                    case INT64 -> assertThat(sdk).isEqualTo(((EdmInt64) value).value());
                    case DOUBLE -> assertThat(Double.compare((Double) sdk, ((EdmDouble) value).value())).as(name).isZero();
                    case BOOLEAN -> assertThat(sdk).isEqualTo(((EdmBoolean) value).value());
                    case GUID -> assertThat(sdk).isEqualTo(((EdmGuid) value).value());
                    case BINARY -> assertThat((byte[]) sdk).isEqualTo(((EdmBinary) value).toByteArray());
                    case DATE_TIME -> assertThat(((OffsetDateTime) sdk).toInstant().toEpochMilli())
                            .isEqualTo(Math.floorDiv(((EdmDateTime) value).epochTicks(), 10_000L));
                    default -> throw new AssertionError(value.type());
                }
            });
        }
    }

    /** The entities of a JSON Lines file, typed by the service's own reader (Timestamps left out). */
    private static List<Entity> read(Path lines) throws IOException {
        List<Entity> entities = new ArrayList<>();
        for (String line : Files.readAllLines(lines, StandardCharsets.UTF_8)) {
            EntityBody body = ODataJsonReader.readEntity(line.getBytes(StandardCharsets.UTF_8));
            entities.add(Entity.of(body.partitionKey(), body.rowKey(), body.properties()));
        }
        return entities;
    }

    /** In the order the service keeps them: PartitionKey, then RowKey (ordinal). */
    private static List<Entity> sorted(List<Entity> entities) {
        return entities.stream().sorted(ORDER).toList();
    }

    private static final java.util.Comparator<Entity> ORDER = java.util.Comparator.comparing(Entity::partitionKey)
            .thenComparing(Entity::rowKey);

    /**
     * {@code n} entities in the service's order, each with properties of every Edm type, the values
     * cycling through each type's extremes; every seventh entity lacks some properties.
     */
    static List<Entity> entities(int n) {
        Random random = new Random(14);
        List<EdmValue> strings = List.of(EdmString.of(""), EdmString.of("plain"), EdmString.of("ünïcödé ça 日本語"),
                EdmString.of("emoji \uD83D\uDE00 \uD834\uDD1E"), EdmString.of("quotes \" ' \\, commas, and ; semicolons"),
                EdmString.of("tab\tnewline\nreturn\r\nend"), EdmString.of("control \u0001\u001f\u007f"),
                EdmString.of("  leading and trailing  "), EdmString.of("null"), EdmString.of("123"),
                EdmString.of("x".repeat(30_000)));
        List<EdmValue> int32s = List.of(EdmInt32.of(0), EdmInt32.of(-1), EdmInt32.of(Integer.MAX_VALUE),
                EdmInt32.of(Integer.MIN_VALUE), EdmInt32.of(42));
        List<EdmValue> int64s = List.of(EdmInt64.of(0), EdmInt64.of(Long.MAX_VALUE), EdmInt64.of(Long.MIN_VALUE),
                EdmInt64.of(1L << 53), EdmInt64.of((1L << 53) + 1), EdmInt64.of(-7));
        List<EdmValue> doubles = List.of(EdmDouble.of(0.0), EdmDouble.of(-0.0), EdmDouble.of(1.0), EdmDouble.of(0.1),
                EdmDouble.of(Double.NaN), EdmDouble.of(Double.POSITIVE_INFINITY), EdmDouble.of(Double.NEGATIVE_INFINITY),
                EdmDouble.of(Double.MIN_VALUE), EdmDouble.of(Double.MAX_VALUE), EdmDouble.of(-1e-300),
                EdmDouble.of(1e21), EdmDouble.of(123456789.123456789), EdmDouble.of(Math.PI));
        List<EdmValue> dates = List.of(EdmDateTime.ofEpochTicks(EdmDateTime.MIN_EPOCH_TICKS),
                EdmDateTime.ofEpochTicks(EdmDateTime.MAX_EPOCH_TICKS), EdmDateTime.of(Instant.EPOCH),
                EdmDateTime.ofEpochTicks(17_000_000_000_000_001L), EdmDateTime.of(Instant.parse("2024-02-29T12:00:00Z")));
        List<EdmValue> guids = List.of(EdmGuid.of(new UUID(0, 0)), EdmGuid.of(new UUID(-1, -1)));
        List<Entity> entities = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String pk = PARTITION_KEYS[i * PARTITION_KEYS.length / n];
            Map<String, EdmValue> p = new LinkedHashMap<>();
            p.put("String", strings.get(i % strings.size()));
            p.put("Int32", int32s.get(i % int32s.size()));
            p.put("Int64", int64s.get(i % int64s.size()));
            p.put("Double", i % 3 == 0 ? doubles.get(i / 3 % doubles.size()) : EdmDouble.of(random.nextGaussian() * 1e6));
            p.put("Boolean", EdmBoolean.of(i % 2 == 0));
            p.put("DateTime", i % 2 == 0 ? dates.get(i / 2 % dates.size())
                    : EdmDateTime.ofEpochTicks(random.nextLong(EdmDateTime.MIN_EPOCH_TICKS, EdmDateTime.MAX_EPOCH_TICKS)));
            p.put("Guid", i % 5 == 0 ? guids.get(i / 5 % guids.size()) : EdmGuid.of(new UUID(random.nextLong(),
                    random.nextLong())));
            byte[] bytes = new byte[i % 11 == 0 ? 0 : random.nextInt(1, 64)];
            random.nextBytes(bytes);
            p.put("Binary", EdmBinary.of(bytes));
            if (i % 7 == 0) {
                p.remove("Double");
                p.remove("String");
                p.put("OnlySometimes", EdmString.of("sparse " + i));
            }
            entities.add(Entity.of(pk, String.format("r%08d", i), p));
        }
        return sorted(entities);
    }
}
