package io.tablestream.core.command;

import java.util.Objects;

/**
 * What every command carries besides its operation.
 *
 * @param id unique id of the command; the outcome names it
 * @param account the storage account the command acts in
 * @param acceptedAtMillis when the ingest side (or a Kafka-native producer) accepted it
 * @param replyTo the id of the instance waiting for the outcome, {@code null} when nobody waits
 * @param principal who issued it (account key, SAS, …), for the audit trail; {@code null} if unknown
 */
public record CommandHeader(String id, String account, long acceptedAtMillis, String replyTo, String principal) {
    public CommandHeader {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(account, "account");
    }
}
