package io.tablestream.core.model;

/**
 * A record of the registry (the compacted tables topic every instance reads in full): a table,
 * or an account's settings.
 */
public sealed interface RegistryRecord permits TableRecord, AccountRecord {
    /** The account the record belongs to. */
    String account();
}
