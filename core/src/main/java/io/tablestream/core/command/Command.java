package io.tablestream.core.command;

/**
 * A write, as it travels through the command log: a table operation (create, delete, set ACL), a
 * list of entity operations on one PartitionKey (one operation, or a whole change set applied all
 * or none), or a change to an account's settings (service properties).
 */
public sealed interface Command permits TableCommand, EntityCommand, AccountCommand {
    CommandHeader header();

    default String id() {
        return header().id();
    }

    default String account() {
        return header().account();
    }
}
