package io.tablestream.core.command;

/**
 * A record of the command log. A write: a table operation (create, delete, set ACL), a list of
 * entity operations on one PartitionKey (one operation, or a whole change set applied all or none),
 * or a change to an account's settings (service properties), or a cross-partition transaction
 * ({@link TransactionCommand}), or the deletion of a whole PartitionKey ({@link PartitionDeletion}). Or a notice the processor writes into its own log
 * ({@link TableAnnouncement}, {@link PartitionMarker}, {@link TransactionReport}, {@link JobStep},
 * {@link JobReport}), which no client sends and which gets no outcome. Or independent entity writes
 * on several PartitionKeys of one partition of the log ({@link BulkCommand}). Or a job
 * ({@link JobCommand}): a long-running operation, done by the processor a bounded step at a time.
 */
public sealed interface Command permits TableCommand, EntityCommand, AccountCommand, TableAnnouncement,
        PartitionMarker, TransactionCommand, TransactionReport, PartitionDeletion, BulkCommand, JobCommand, JobStep,
        JobReport {
    CommandHeader header();

    default String id() {
        return header().id();
    }

    default String account() {
        return header().account();
    }

    /** Whether a client sent it (as opposed to a notice the processor wrote to itself). */
    default boolean isWrite() {
        return !(this instanceof TableAnnouncement || this instanceof PartitionMarker
                || this instanceof TransactionReport || this instanceof JobStep || this instanceof JobReport);
    }
}
