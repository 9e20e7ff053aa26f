package io.tablestream.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.Command;
import io.tablestream.core.command.TableCommand;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.junit.jupiter.api.Test;

/**
 * Records written before a field was added must still read: the earlier schema is known to the
 * decoder by its fingerprint and resolved to the current one, the new field taking its default.
 */
class SchemaEvolutionTest {
    private static final Schema CURRENT = io.tablestream.schemas.avro.Command.getClassSchema();

    /** The Command schema as it was before {@code principal} was added. */
    private static Schema withoutPrincipal() {
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : CURRENT.getFields()) {
            if (!f.name().equals("principal")) {
                fields.add(new Schema.Field(f, f.schema()));
            }
        }
        return Schema.createRecord(CURRENT.getName(), CURRENT.getDoc(), CURRENT.getNamespace(), false, fields);
    }

    private static byte[] oldTableCommand(Schema old) throws IOException {
        Schema tableOp = old.getField("operation").schema().getTypes().get(0);
        GenericRecord op = new GenericData.Record(tableOp);
        op.put("type", new GenericData.EnumSymbol(tableOp.getField("type").schema(), "CREATE"));
        op.put("tableName", "Legacy");
        op.put("defaultTtlSeconds", null);
        op.put("accessPolicies", List.of());
        op.put("indexes", List.of());
        GenericRecord command = new GenericData.Record(old);
        command.put("id", "old-1");
        command.put("account", "acct");
        command.put("acceptedAtMillis", 42L);
        command.put("replyTo", null);
        command.put("operation", op);
        return new BinaryMessageEncoder<GenericRecord>(GenericData.get(), old).encode(command).array();
    }

    @Test
    void readsARecordWrittenByAnEarlierSchemaVersion() throws IOException {
        Schema old = withoutPrincipal();
        LogCodec<Command> codec = AvroLogCodec.withHistory(CURRENT, List.of(old),
                LogCodecs::commandToAvro, LogCodecs::commandFromAvro);

        Command decoded = codec.decode(oldTableCommand(old));

        assertThat(decoded).isInstanceOf(TableCommand.class);
        assertThat(decoded.id()).isEqualTo("old-1");
        assertThat(((TableCommand) decoded).tableName().value()).isEqualTo("Legacy");
        assertThat(decoded.header().principal()).isNull();
    }

    @Test
    void rejectsARecordOfAnUnknownSchemaVersion() throws IOException {
        byte[] bytes = oldTableCommand(withoutPrincipal());

        assertThatThrownBy(() -> LogCodecs.COMMAND.decode(bytes))
                .isInstanceOf(LogFormatException.class)
                .hasMessageContaining("Command");
    }
}
