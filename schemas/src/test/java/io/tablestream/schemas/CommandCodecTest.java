package io.tablestream.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.JobCommand;
import io.tablestream.core.command.JobReport;
import io.tablestream.core.command.JobSpec;
import io.tablestream.core.command.JobStep;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.PartitionMarker;
import io.tablestream.core.command.TableAnnouncement;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.command.TransactionRef;
import io.tablestream.core.command.TransactionReport;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.ServicePropertiesUpdate;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.schemas.avro.EntityOperationType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * The direct command codec writes exactly the bytes Avro's writer writes and reads exactly what
 * Avro's reader reads, for every kind of command and every combination of optional fields; bytes
 * Avro refuses it refuses with Avro's error.
 */
class CommandCodecTest {
    /** Avro's own codec of commands, as the log had it before the direct one. */
    private static final LogCodec<Command> AVRO = AvroLogCodec.of(io.tablestream.schemas.avro.Command.getClassSchema(),
            LogCodecs::commandToAvro, LogCodecs::commandFromAvro);
    private static final TableName TABLE = TableName.of("Orders");

    private static CommandHeader header(String replyTo, String principal) {
        return new CommandHeader("c-\u00e9\uD83D\uDE00", "devstoreaccount1", 1_700_000_000_000L, replyTo, principal);
    }

    private static void assertSameAsAvro(Command command) {
        byte[] avro = AVRO.encode(command);
        assertThat(LogCodecs.COMMAND.encode(command)).as("%s", command).isEqualTo(avro);
        assertThat(LogCodecs.COMMAND.decode(avro)).as("%s", command).isEqualTo(AVRO.decode(avro)).isEqualTo(command);
    }

    private static List<EntityOperation> everyOperationShape() {
        List<EntityOperation> ops = new ArrayList<>();
        for (EntityOperation.Type type : EntityOperation.Type.values()) {
            for (String ifMatch : Arrays.asList(null, "*", "W/\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\"")) {
                Map<String, EdmValue> none = Map.of();
                ops.add(EntityOperation.of(type, "r-" + ops.size(), ifMatch,
                        type == EntityOperation.Type.DELETE ? none : LogCodecsTest.everyTypeAtItsExtremes()));
                ops.add(EntityOperation.of(type, "", ifMatch, none));
            }
        }
        return ops;
    }

    @Test
    void writesAndReadsAvrosBytesForEveryEntityCommandShape() {
        for (CommandHeader h : List.of(header(null, null), header("instance-a", null), header(null, "sas:acct"),
                header("instance-a", "sharedkey:devstoreaccount1"))) {
            for (EntityOperation op : everyOperationShape()) {
                assertSameAsAvro(EntityCommand.single(h, 42L, TABLE, "pk", op));
            }
            assertSameAsAvro(EntityCommand.batch(h, Long.MAX_VALUE, TABLE, "pk \u00e9", everyOperationShape()));
            assertSameAsAvro(new EntityCommand(h, -1L, TABLE, "", List.of(), false));
            assertSameAsAvro(EntityCommand.part(h, 7L, TABLE, "p", everyOperationShape().subList(0, 3), "tx", 5));
            assertSameAsAvro(EntityCommand.ofJob(h, 7L, TABLE, "p", everyOperationShape().subList(3, 6), "job-1"));
            assertSameAsAvro(new EntityCommand(h, 7L, TABLE, "p", everyOperationShape().subList(0, 1), true,
                    new TransactionRef("tx", Integer.MAX_VALUE), "job-2"));
        }
    }

    @Test
    void writesAndReadsAvrosBytesForEveryOtherKindOfCommand() {
        CommandHeader h = header("instance-a", "sas:acct");
        EdmDateTime at = EdmDateTime.ofEpochTicks(17_000_000_000_000_000L);
        EntityCommand part0 = EntityCommand.part(LogCodecs.partHeader(h, "tx", 0), 12L, TABLE, "p",
                everyOperationShape().subList(0, 4), "tx", 0);
        EntityCommand part1 = EntityCommand.part(LogCodecs.partHeader(h, "tx", 1), 13L, TableName.of("Archive"), "q",
                List.of(EntityOperation.delete("r", "*")), "tx", 1);
        List<BulkCommand.Write> writes = new ArrayList<>();
        everyOperationShape().forEach(op -> writes.add(new BulkCommand.Write("pk-" + writes.size() % 3, op)));
        TableRecord created = TableRecord.active(h.account(), TABLE, 12L, EdmDateTime.ofEpochTicks(1L), 60);
        List<Command> commands = List.of(
                new BulkCommand(h, 42L, TABLE, writes),
                new TransactionCommand(h, "tx", List.of(part0, part1)),
                new PartitionDeletion(h, 42L, TABLE, "pk"),
                PartitionMarker.of("incarnation-1", 5, 3L),
                PartitionMarker.of("incarnation-2", Integer.MAX_VALUE, Long.MAX_VALUE),
                TableCommand.create(h, TABLE, 3600),
                TableCommand.delete(header(null, null), TABLE),
                AccountCommand.setServiceProperties(h, ServicePropertiesUpdate.NONE),
                TableAnnouncement.of(h, created),
                new TransactionReport(h, "tx", 1, new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "exists", 0)),
                new TransactionReport(h, "tx", 0, null),
                new JobCommand(h, new JobSpec.Restore(12L, TABLE, TableName.of("OrdersThen"), at)),
                new JobCommand(h, new JobSpec.DeleteEntities(12L, TABLE, "N lt 5")),
                new JobStep(h, "job", 2, 0, null),
                new JobReport(h, "job", JobReport.Kind.DONE, 2, 1234, 0, null));
        for (Command c : commands) {
            assertSameAsAvro(c);
        }
    }

    @Test
    void writesAndReadsAvrosBytesForRandomCommands() {
        Random random = new Random(11);
        List<EdmValue> samples = new ArrayList<>(LogCodecsTest.everyTypeAtItsExtremes().values());
        for (int i = 0; i < 2_000; i++) {
            List<EntityOperation> ops = new ArrayList<>();
            int n = 1 + random.nextInt(random.nextBoolean() ? 3 : 100);
            for (int k = 0; k < n; k++) {
                Map<String, EdmValue> props = new LinkedHashMap<>();
                int count = random.nextInt(20);
                for (int p = 0; p < count; p++) {
                    props.put(randomString(random, 1 + random.nextInt(10)), random.nextBoolean()
                            ? samples.get(random.nextInt(samples.size()))
                            : random.nextBoolean() ? EdmString.of(randomString(random, random.nextInt(300)))
                            : EdmInt32.of(random.nextInt()));
                }
                EntityOperation.Type type = EntityOperation.Type.values()[random.nextInt(6)];
                ops.add(EntityOperation.of(type, randomString(random, random.nextInt(40)),
                        random.nextBoolean() ? null : randomString(random, 30), props));
            }
            CommandHeader h = new CommandHeader(randomString(random, 36), randomString(random, 20), random.nextLong(),
                    random.nextBoolean() ? null : randomString(random, 40),
                    random.nextBoolean() ? null : randomString(random, 40));
            Command command = switch (random.nextInt(4)) {
                case 0 -> new EntityCommand(h, random.nextLong(), TABLE, randomString(random, 30), ops,
                        random.nextBoolean(), random.nextBoolean() ? null : new TransactionRef("tx", random.nextInt(100)),
                        random.nextBoolean() ? null : "job");
                case 1 -> {
                    List<BulkCommand.Write> writes = new ArrayList<>();
                    ops.forEach(op -> writes.add(new BulkCommand.Write(randomString(random, 10), op)));
                    yield new BulkCommand(h, random.nextLong(), TABLE, writes);
                }
                case 2 -> new PartitionDeletion(h, random.nextLong(), TABLE, randomString(random, 30));
                default -> EntityCommand.batch(h, random.nextLong(), TABLE, "pk", ops);
            };
            byte[] avro = AVRO.encode(command);
            assertThat(Arrays.equals(LogCodecs.COMMAND.encode(command), avro)).as("command %d", i).isTrue();
            // lone surrogates write as '?', so two names may read back the same: Avro's reader refuses those
            assertThat(outcomeOf(LogCodecs.COMMAND, avro)).as("command %d", i).isEqualTo(outcomeOf(AVRO, avro));
        }
    }

    /** Any UTF-16: letters, other scripts, pairs and lone surrogates (which both write as '?'). */
    private static String randomString(Random random, int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append(switch (random.nextInt(5)) {
                case 0 -> (char) ('a' + random.nextInt(26));
                case 1 -> (char) random.nextInt(0x80);
                case 2 -> (char) (0x80 + random.nextInt(0x7FF));
                case 3 -> (char) (0xD800 + random.nextInt(0x800));
                default -> (char) random.nextInt(0x10000);
            });
        }
        return s.toString();
    }

    @Test
    void damagedBytesGiveAvrosAnswerOrAvrosError() {
        Random random = new Random(3);
        List<byte[]> valid = new ArrayList<>();
        for (EntityOperation op : everyOperationShape()) {
            valid.add(AVRO.encode(EntityCommand.single(header("i", null), 42L, TABLE, "pk", op)));
        }
        valid.add(AVRO.encode(new BulkCommand(header(null, "p"), 1L, TABLE, List.of(
                new BulkCommand.Write("a", everyOperationShape().get(2)), new BulkCommand.Write("b", everyOperationShape().get(5))))));
        valid.add(AVRO.encode(new PartitionDeletion(header(null, null), 42L, TABLE, "pk")));
        valid.add(AVRO.encode(PartitionMarker.of("inc", 3, 4L)));
        int failures = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = valid.get(random.nextInt(valid.size())).clone();
            switch (random.nextInt(3)) {
                case 0 -> bytes = Arrays.copyOf(bytes, AvroBinary.HEADER_LENGTH + random.nextInt(bytes.length - 9));
                case 1 -> bytes[AvroBinary.HEADER_LENGTH + random.nextInt(bytes.length - AvroBinary.HEADER_LENGTH)] =
                        (byte) random.nextInt(256);
                default -> {
                    for (int k = 0; k < 4; k++) {
                        bytes[AvroBinary.HEADER_LENGTH + random.nextInt(bytes.length - AvroBinary.HEADER_LENGTH)] ^=
                                (byte) (1 << random.nextInt(8));
                    }
                }
            }
            Object expected = outcomeOf(AVRO, bytes);
            Object actual = outcomeOf(LogCodecs.COMMAND, bytes);
            assertThat(actual).as("damaged record %d", i).isEqualTo(expected);
            if (expected instanceof String) {
                failures++;
            }
        }
        assertThat(failures).as("damaged records refused").isGreaterThan(1_000);
    }

    /** The command decoded, or the message of the LogFormatException that refused it. */
    private static Object outcomeOf(LogCodec<Command> codec, byte[] bytes) {
        try {
            return codec.decode(bytes);
        } catch (LogFormatException e) {
            return "LogFormatException: " + e.getMessage();
        }
    }

    @Test
    void refusesWhatAvroRefusesWithAvrosError() {
        byte[] whole = AVRO.encode(EntityCommand.single(header(null, null), 1L, TABLE, "pk",
                EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of("A", EdmInt32.of(1)))));
        for (byte[] bad : List.of(Arrays.copyOf(whole, whole.length - 3), Arrays.copyOf(whole, 10), new byte[] {1, 2})) {
            assertThatThrownBy(() -> AVRO.decode(bad)).isInstanceOf(LogFormatException.class);
            assertThat(outcomeOf(LogCodecs.COMMAND, bad)).isEqualTo(outcomeOf(AVRO, bad));
        }
        assertThat(outcomeOf(LogCodecs.COMMAND, null)).isEqualTo(outcomeOf(AVRO, null));
    }

    @Test
    void readsARecordThatAvroWroteInSeveralBlocks() throws IOException {
        List<BulkCommand.Write> writes = new ArrayList<>();
        everyOperationShape().forEach(op -> writes.add(new BulkCommand.Write("pk-" + writes.size(), op)));
        Command bulk = new BulkCommand(header("i", null), 42L, TABLE, writes);
        Schema schema = io.tablestream.schemas.avro.Command.getClassSchema();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(AvroBinary.header(schema));
        BinaryEncoder blocks = new EncoderFactory().configureBlockSize(64).blockingBinaryEncoder(out, null);
        new SpecificDatumWriter<io.tablestream.schemas.avro.Command>(schema).write(LogCodecs.commandToAvro(bulk), blocks);
        blocks.flush();
        byte[] bytes = out.toByteArray();

        assertThat(bytes).isNotEqualTo(AVRO.encode(bulk)); // written in blocks, with their sizes
        assertThat(LogCodecs.COMMAND.decode(bytes)).isEqualTo(AVRO.decode(bytes)).isEqualTo(bulk);
    }

    @Test
    void theDomainsOperationTypesMapOntoTheSchemasSymbols() {
        assertThat(Arrays.stream(EntityOperation.Type.values()).map(Enum::name))
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(EntityOperationType.values()).map(Enum::name).toList());
    }
}
