package io.tablestream.processor;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.model.RegistryRecord;
import io.tablestream.schemas.LogCodec;
import io.tablestream.schemas.LogCodecs;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Every topic Tablestream uses, declared once from the configured prefix. Keys are UTF-8 strings
 * (see {@link io.tablestream.core.command.CommandKey}); values are Avro single-object records
 * (see the schemas module), except the dead letters, which keep the rejected bytes as they came.
 */
public final class Topics {
    /** Room for a change set of up to 4 MiB of entities plus the record's own overhead. */
    public static final int MAX_COMMAND_BYTES = 8 * 1024 * 1024;
    /** Room for one entity of up to 1 MiB (measured as the service does) encoded in Avro. */
    public static final int MAX_ENTITY_RECORD_BYTES = 4 * 1024 * 1024;
    /**
     * How long the commands topic keeps a command: 7 days, Kafka's own default. The state is rebuilt
     * from the stores' changelogs, never from the commands; a command is needed only until its task
     * has applied it (seconds), and the change feed (kept forever) is the audit log of what changed.
     */
    public static final long COMMANDS_RETENTION_MS = 7L * 24 * 3600 * 1000;

    private final String prefix;
    private final TopicDescriptor<String, Command> commands;
    private final TopicDescriptor<String, Outcome> outcomes;
    private final TopicDescriptor<String, ChangeEvent> changes;
    private final TopicDescriptor<String, RegistryRecord> tables;
    private final TopicDescriptor<byte[], byte[]> deadLetters;

    private Topics(String prefix) {
        this.prefix = prefix;
        this.commands = new TopicDescriptor<>(prefix + ".commands", Serdes.String(), serde(LogCodecs.COMMAND), null,
                Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(COMMANDS_RETENTION_MS),
                        TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_COMMAND_BYTES)));
        this.outcomes = new TopicDescriptor<>(prefix + ".outcomes", Serdes.String(), serde(LogCodecs.OUTCOME), null,
                Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(24L * 3600 * 1000)));
        this.changes = new TopicDescriptor<>(prefix + ".changes", Serdes.String(), serde(LogCodecs.CHANGE_EVENT), null,
                Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1",
                        TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_ENTITY_RECORD_BYTES)));
        this.tables = new TopicDescriptor<>(prefix + ".tables", Serdes.String(), serde(LogCodecs.REGISTRY_RECORD), 1,
                Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        this.deadLetters = new TopicDescriptor<>(prefix + ".deadletter", Serdes.ByteArray(), Serdes.ByteArray(), null,
                Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(30L * 24 * 3600 * 1000),
                        TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_COMMAND_BYTES)));
    }

    public static Topics withPrefix(String prefix) {
        if (prefix == null || prefix.isBlank() || !prefix.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("A topic prefix is letters, digits, '.', '_' or '-': '" + prefix + "'");
        }
        return new Topics(prefix);
    }

    public String prefix() {
        return prefix;
    }

    /** Writes, keyed by {@link io.tablestream.core.command.CommandKey}. */
    public TopicDescriptor<String, Command> commands() {
        return commands;
    }

    /** One outcome per command, keyed by the instance awaiting it (or the command id). */
    public TopicDescriptor<String, Outcome> outcomes() {
        return outcomes;
    }

    /** The change feed: one event per applied entity change, keyed like the command. */
    public TopicDescriptor<String, ChangeEvent> changes() {
        return changes;
    }

    /**
     * The registry (compacted), read everywhere as a global store: tables under their name and id
     * keys, accounts' settings under their account keys.
     */
    public TopicDescriptor<String, RegistryRecord> tables() {
        return tables;
    }

    /** Commands that could not be decoded or were invalid, as they came, with the reason in headers. */
    public TopicDescriptor<byte[], byte[]> deadLetters() {
        return deadLetters;
    }

    public List<TopicDescriptor<?, ?>> all() {
        return List.of(commands, outcomes, changes, tables, deadLetters);
    }

    private static <T> Serde<T> serde(LogCodec<T> codec) {
        return Serdes.serdeFrom((topic, value) -> value == null ? null : codec.encode(value),
                (topic, bytes) -> bytes == null ? null : codec.decode(bytes));
    }
}
