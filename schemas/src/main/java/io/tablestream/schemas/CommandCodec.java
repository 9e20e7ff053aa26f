package io.tablestream.schemas;

import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.PartitionMarker;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.command.TransactionRef;
import io.tablestream.core.model.TableName;
import io.tablestream.schemas.avro.EntityOperationType;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;

/**
 * The codec of commands: the current {@code Command} schema's single-object form written and read
 * directly for the commands written once per client write — entity commands (single writes,
 * change sets, a transaction's parts, a job's copies), bulk writes, cross-partition transactions,
 * partition deletions and partition markers — the same bytes Avro's writer produces and the same
 * values its reader returns (a test holds both equal), without Avro's union resolution by name.
 * Everything else (table and account commands, announcements, reports, jobs: rare) is Avro's, and
 * so is a record of an earlier schema (Avro resolves it to the current one) or one the direct reader
 * refuses: bytes Avro would not read the same way go to Avro's reader, whose errors stay as they were.
 */
final class CommandCodec implements LogCodec<Command> {
    private static final Schema SCHEMA = io.tablestream.schemas.avro.Command.getClassSchema();
    private static final byte[] HEADER = AvroBinary.header(SCHEMA);
    private static final Schema OPERATIONS = SCHEMA.getField("operation").schema();
    /** The branches of the {@code operation} union this codec writes and reads itself. */
    static final int ENTITY_OPERATIONS = branch("EntityOperations");
    static final int TRANSACTION_OPERATIONS = branch("TransactionOperations");
    static final int PARTITION_DELETE = branch("PartitionDelete");
    static final int BULK_WRITES = branch("BulkWrites");
    static final int PARTITION_MARKER = branch("PartitionMarker");
    /** The schema's symbol of each domain operation type, by its ordinal, and back. */
    private static final int[] TYPE_SYMBOLS = Arrays.stream(EntityOperation.Type.values())
            .mapToInt(t -> EntityOperationType.valueOf(t.name()).ordinal()).toArray();
    private static final EntityOperation.Type[] TYPES = Arrays.stream(EntityOperationType.values())
            .map(t -> EntityOperation.Type.valueOf(t.name())).toArray(EntityOperation.Type[]::new);

    private final LogCodec<Command> avro;

    CommandCodec(LogCodec<Command> avro) {
        this.avro = avro;
    }

    private static int branch(String record) {
        Integer i = OPERATIONS.getIndexNamed(SCHEMA.getNamespace() + "." + record);
        if (i == null) {
            throw new IllegalStateException("the Command schema has no operation " + record);
        }
        return i;
    }

    @Override
    public byte[] encode(Command command) {
        if (!(command instanceof EntityCommand || command instanceof BulkCommand || command instanceof PartitionMarker
                || command instanceof PartitionDeletion || command instanceof TransactionCommand)) {
            return avro.encode(command);
        }
        ByteWriter w = new ByteWriter(256);
        w.raw(HEADER);
        CommandHeader h = command.header();
        AvroBinary.string(w, h.id());
        AvroBinary.string(w, h.account());
        w.varlong(h.acceptedAtMillis());
        AvroBinary.nullableString(w, h.replyTo());
        AvroBinary.nullableString(w, h.principal());
        if (command instanceof EntityCommand e) {
            w.varlong(ENTITY_OPERATIONS);
            entityOperations(w, e);
        } else if (command instanceof BulkCommand b) {
            w.varlong(BULK_WRITES);
            w.varlong(b.tableId());
            AvroBinary.string(w, b.tableName().value());
            w.varlong(b.writes().size());
            for (BulkCommand.Write write : b.writes()) {
                AvroBinary.string(w, write.partitionKey());
                operation(w, write.operation());
            }
            endArray(w, b.writes());
        } else if (command instanceof TransactionCommand t) {
            w.varlong(TRANSACTION_OPERATIONS);
            AvroBinary.string(w, t.transactionId());
            w.varlong(t.parts().size());
            for (EntityCommand part : t.parts()) {
                entityOperations(w, part);
            }
            endArray(w, t.parts());
        } else if (command instanceof PartitionDeletion d) {
            w.varlong(PARTITION_DELETE);
            w.varlong(d.tableId());
            AvroBinary.string(w, d.tableName().value());
            AvroBinary.string(w, d.partitionKey());
        } else {
            w.varlong(PARTITION_MARKER);
            w.varlong(((PartitionMarker) command).partition());
        }
        return w.toByteArray();
    }

    /** An {@code EntityOperations} record (its operations as one block of an array). */
    private static void entityOperations(ByteWriter w, EntityCommand e) {
        w.varlong(e.tableId());
        AvroBinary.string(w, e.tableName().value());
        AvroBinary.string(w, e.partitionKey());
        AvroBinary.bool(w, e.batch());
        w.varlong(e.operations().size());
        for (EntityOperation op : e.operations()) {
            operation(w, op);
        }
        endArray(w, e.operations());
        TransactionRef ref = e.transaction();
        if (ref == null) {
            w.varlong(0);
        } else {
            w.varlong(1);
            AvroBinary.string(w, ref.transactionId());
            w.varlong(ref.part());
        }
        AvroBinary.nullableString(w, e.job());
    }

    private static void operation(ByteWriter w, EntityOperation op) {
        w.varlong(TYPE_SYMBOLS[op.type().ordinal()]);
        AvroBinary.string(w, op.rowKey());
        AvroBinary.nullableString(w, op.ifMatch());
        AvroBinary.properties(w, op.properties());
    }

    /** After a non-empty array's one block, its end; an empty array is its end alone (the count 0 written). */
    private static void endArray(ByteWriter w, List<?> items) {
        if (!items.isEmpty()) {
            w.varlong(0);
        }
    }

    @Override
    public Command decode(byte[] bytes) {
        Command direct = null;
        if (bytes != null && bytes.length >= AvroBinary.HEADER_LENGTH
                && Arrays.equals(bytes, 0, AvroBinary.HEADER_LENGTH, HEADER, 0, AvroBinary.HEADER_LENGTH)) {
            try {
                direct = read(new AvroReader(bytes, AvroBinary.HEADER_LENGTH));
            } catch (RuntimeException e) {
                direct = null; // Avro's reader says what is wrong with it, as it always did
            }
        }
        return direct != null ? direct : avro.decode(bytes);
    }

    /** The command, or null when its operation is one Avro's reader reads. */
    private static Command read(AvroReader r) {
        CommandHeader h = new CommandHeader(r.readString(), r.readString(), r.readLong(), r.readNullableString(),
                r.readNullableString());
        int branch = r.readIndex(OPERATIONS.getTypes().size());
        if (branch == ENTITY_OPERATIONS) {
            return readEntityOperations(h, r);
        } else if (branch == BULK_WRITES) {
            long tableId = r.readLong();
            TableName table = TableName.of(r.readString());
            List<BulkCommand.Write> writes = r.readArray(i -> new BulkCommand.Write(r.readString(), readOperation(r)));
            return new BulkCommand(h, tableId, table, writes);
        } else if (branch == TRANSACTION_OPERATIONS) {
            String transactionId = r.readString();
            List<EntityCommand> parts = r.readArray(i -> readEntityOperations(
                    LogCodecs.partHeader(h, transactionId, i), r));
            return new TransactionCommand(h, transactionId, parts);
        } else if (branch == PARTITION_DELETE) {
            return new PartitionDeletion(h, r.readLong(), TableName.of(r.readString()), r.readString());
        } else if (branch == PARTITION_MARKER) {
            return new PartitionMarker(h, r.readInt());
        }
        return null;
    }

    private static EntityCommand readEntityOperations(CommandHeader h, AvroReader r) {
        long tableId = r.readLong();
        TableName table = TableName.of(r.readString());
        String partitionKey = r.readString();
        boolean batch = r.readBoolean();
        List<EntityOperation> operations = r.readArray(i -> readOperation(r));
        TransactionRef ref = r.readPresent() ? new TransactionRef(r.readString(), r.readInt()) : null;
        return new EntityCommand(h, tableId, table, partitionKey, operations, batch, ref, r.readNullableString());
    }

    private static EntityOperation readOperation(AvroReader r) {
        EntityOperation.Type type = TYPES[r.readIndex(TYPES.length)];
        return EntityOperation.of(type, r.readString(), r.readNullableString(), r.readProperties());
    }
}
