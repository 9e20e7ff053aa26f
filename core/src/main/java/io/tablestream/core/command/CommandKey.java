package io.tablestream.core.command;

import io.tablestream.core.model.TableName;
import java.util.Objects;

/**
 * The Kafka record key of a command, which decides its partition and so the one task that applies
 * it: {@code <account>/<tableId>/<PartitionKey>} for entity commands (so a partition's writes are
 * applied in order, and a change set lands on one task), {@code <account>/<lower-case name>} for
 * table commands (so one task decides each name). Keys cannot contain {@code /}, so the form is
 * unambiguous. Change events and store lookups use the same key. The processor's own notices: a
 * table announcement is keyed like its table's commands (and written to every partition), a
 * partition marker by its partition's number.
 */
public record CommandKey(String value) {
    public CommandKey {
        Objects.requireNonNull(value, "value");
    }

    public static CommandKey forEntity(String account, long tableId, String partitionKey) {
        return new CommandKey(account + '/' + tableId + '/' + partitionKey);
    }

    public static CommandKey forTable(String account, TableName name) {
        return new CommandKey(account + '/' + name.key());
    }

    public static CommandKey forAccount(String account) {
        return new CommandKey(account);
    }

    /**
     * A partition marker's key: the number of the partition it is written to. The processor writes
     * it there explicitly, not through the default partitioner.
     */
    public static CommandKey forMarker(int partition) {
        return new CommandKey(Integer.toString(partition));
    }

    public static CommandKey of(Command command) {
        if (command instanceof EntityCommand e) {
            return forEntity(e.account(), e.tableId(), e.partitionKey());
        }
        if (command instanceof TableCommand t) {
            return forTable(t.account(), t.tableName());
        }
        if (command instanceof TableAnnouncement a) {
            return forTable(a.account(), a.table().name());
        }
        if (command instanceof PartitionMarker m) {
            return forMarker(m.partition());
        }
        return forAccount(command.account());
    }

    @Override
    public String toString() {
        return value;
    }
}
