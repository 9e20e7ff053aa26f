package io.tablestream.core.command;

import io.tablestream.core.model.TableName;
import java.util.Objects;

/**
 * The Kafka record key of a command, which decides its partition and so the one task that applies
 * it: {@code <account>/<tableId>/<PartitionKey>} for entity commands (so a partition's writes are
 * applied in order, and a change set lands on one task), {@code <account>/<lower-case name>} for
 * table commands (so one task decides each name); a bulk command like its first write. Keys cannot
 * contain {@code /}, so the form is
 * unambiguous. Change events and store lookups use the same key. The processor's own notices: a
 * table announcement is keyed like its table's commands (and written to every partition), a
 * partition marker and a job's step by its partition's number. A job and its reports are keyed by
 * the account, as the account's settings are: one task coordinates every job of an account.
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
     * A cross-partition transaction's key: {@code <account>/$transaction/<id>} (no table id starts
     * with {@code $}), so one task coordinates it and keeps its status.
     */
    public static CommandKey forTransaction(String account, String transactionId) {
        return new CommandKey(account + "/$transaction/" + transactionId);
    }

    /**
     * A partition marker's key: the number of the partition it is written to. The processor writes
     * it there explicitly, not through the default partitioner.
     */
    public static CommandKey forMarker(int partition) {
        return new CommandKey(Integer.toString(partition));
    }

    /**
     * The key of the {@code TABLE_DELETED} change event a task writes to its own partition
     * {@code partition} of the changes topic: {@code <account>/<tableId>/#<partition>}. It begins
     * like the table's entity keys (a table's feed reads it) and no PartitionKey holds {@code #},
     * so it is no entity's key. The processor writes it to that partition explicitly.
     */
    public static CommandKey forTableDeletedEvent(String account, long tableId, int partition) {
        return new CommandKey(account + '/' + tableId + "/#" + partition);
    }

    /** The partition a {@link #forTableDeletedEvent} key names, or -1 for any other key. */
    public static int tableDeletedEventPartition(String key) {
        int hash = key.lastIndexOf("/#");
        if (hash < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(key.substring(hash + 2));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public static CommandKey of(Command command) {
        if (command instanceof EntityCommand e) {
            return forEntity(e.account(), e.tableId(), e.partitionKey());
        }
        if (command instanceof PartitionDeletion d) {
            return forEntity(d.account(), d.tableId(), d.partitionKey());
        }
        if (command instanceof BulkCommand b) {
            return forEntity(b.account(), b.tableId(), b.writes().get(0).partitionKey());
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
        if (command instanceof TransactionCommand t) {
            return forTransaction(t.account(), t.transactionId());
        }
        if (command instanceof TransactionReport r) {
            return forTransaction(r.account(), r.transactionId());
        }
        if (command instanceof JobStep s) {
            return forMarker(s.partition());
        }
        return forAccount(command.account());
    }

    @Override
    public String toString() {
        return value;
    }
}
