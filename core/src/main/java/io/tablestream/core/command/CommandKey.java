package io.tablestream.core.command;

import io.tablestream.core.model.TableName;
import java.util.Objects;

/**
 * The Kafka record key of a command, which decides its partition and so the one task that applies
 * it: {@code <account>/<tableId>/<PartitionKey>} for entity commands (so a partition's writes are
 * applied in order, and a change set lands on one task), {@code <account>/<lower-case name>} for
 * table commands (so one task decides each name). Keys cannot contain {@code /}, so the form is
 * unambiguous. Change events and store lookups use the same key.
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

    public static CommandKey of(Command command) {
        if (command instanceof EntityCommand e) {
            return forEntity(e.account(), e.tableId(), e.partitionKey());
        }
        if (command instanceof TableCommand t) {
            return forTable(t.account(), t.tableName());
        }
        return forAccount(command.account());
    }

    @Override
    public String toString() {
        return value;
    }
}
