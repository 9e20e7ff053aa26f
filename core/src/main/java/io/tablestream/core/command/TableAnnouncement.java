package io.tablestream.core.command;

import java.util.Objects;
import io.tablestream.core.model.TableRecord;

/**
 * A table's creation or deletion, written by the processor task that decided it into every
 * partition of the command log (not a client's write: it has no outcome). Each partition learns
 * that a table exists, or no longer does, at one fixed point of its own order, so whether an entity
 * command finds its table depends on the partition's log alone and a replay decides it the same.
 *
 * @param table the table as decided (ACTIVE after a create, DELETED after a delete), without its
 *     stored access policies, which entity commands never need
 */
public record TableAnnouncement(CommandHeader header, TableRecord table) implements Command {
    public TableAnnouncement {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(table, "table");
        if (!table.account().equals(header.account())) {
            throw new IllegalArgumentException("an announcement names the account of its table");
        }
        if (!table.accessPolicies().isEmpty()) {
            table = table.withAccessPolicies(java.util.List.of());
        }
    }

    /** The announcement of {@code table}, decided by the command {@code decidedBy}. */
    public static TableAnnouncement of(CommandHeader decidedBy, TableRecord table) {
        return new TableAnnouncement(new CommandHeader(decidedBy.id() + ANNOUNCE, table.account(),
                decidedBy.acceptedAtMillis(), null, decidedBy.principal()), table);
    }

    private static final String ANNOUNCE = "/announce";

    /** The id of the table command whose decision this announces. */
    public String decidedBy() {
        String id = header.id();
        return id.endsWith(ANNOUNCE) ? id.substring(0, id.length() - ANNOUNCE.length()) : id;
    }
}
