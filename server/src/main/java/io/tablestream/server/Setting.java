package io.tablestream.server;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One configuration key, declared once: its name, type, default and description. A value comes
 * from, in order: the system property {@code tablestream.<name>}, the environment variable
 * {@code TABLESTREAM_<NAME>} (or the variable the setting names itself, e.g.
 * {@code KAFKA_BOOTSTRAP_SERVERS}), the configuration file, the default.
 */
public record Setting<T>(String name, String environmentVariable, Class<T> type, T defaultValue, String description,
                         Function<String, T> parser) {
    public Setting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(environmentVariable, "environmentVariable");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parser, "parser");
    }

    static Setting<String> text(String name, String defaultValue, String description) {
        return new Setting<>(name, env(name), String.class, defaultValue, description, s -> s);
    }

    static Setting<String> text(String name, String environmentVariable, String defaultValue, String description) {
        return new Setting<>(name, environmentVariable, String.class, defaultValue, description, s -> s);
    }

    /** A text setting that takes one of {@code values} (case-insensitive), kept in lower case. */
    static Setting<String> choice(String name, String defaultValue, String description, String... values) {
        java.util.List<String> allowed = java.util.List.of(values);
        return new Setting<>(name, env(name), String.class, defaultValue, description, s -> {
            String v = s.strip().toLowerCase(Locale.ROOT);
            if (!allowed.contains(v)) {
                throw new IllegalArgumentException("expected one of " + String.join(", ", allowed));
            }
            return v;
        });
    }

    static Setting<Integer> integer(String name, int defaultValue, String description) {
        return new Setting<>(name, env(name), Integer.class, defaultValue, description, s -> Integer.parseInt(s.strip()));
    }

    static Setting<Long> longInteger(String name, long defaultValue, String description) {
        return new Setting<>(name, env(name), Long.class, defaultValue, description, s -> Long.parseLong(s.strip()));
    }

    static Setting<Boolean> flag(String name, boolean defaultValue, String description) {
        return new Setting<>(name, env(name), Boolean.class, defaultValue, description, s -> {
            String v = s.strip().toLowerCase(Locale.ROOT);
            if (v.equals("true") || v.equals("false")) {
                return Boolean.parseBoolean(v);
            }
            throw new IllegalArgumentException("expected true or false");
        });
    }

    /** The system-property form of the name. */
    public String propertyName() {
        return "tablestream." + name;
    }

    /**
     * The environment-variable prefix of a pass-through family ({@code kafka.} → {@code TABLESTREAM_KAFKA_}).
     * Kafka's names map to variables as Kafka's own container images do: {@code .} is {@code _},
     * {@code _} is {@code __}, {@code -} is {@code ___} ({@code TABLESTREAM_KAFKA_SASL_MECHANISM} is
     * {@code kafka.sasl.mechanism}).
     */
    static String passThroughEnvironmentPrefix(String prefix) {
        return env(prefix.substring(0, prefix.length() - 1)) + "_";
    }

    /** The Kafka setting name a pass-through variable's suffix stands for ({@code SESSION_TIMEOUT_MS} → {@code session.timeout.ms}). */
    static String passThroughName(String variableSuffix) {
        StringBuilder name = new StringBuilder(variableSuffix.length());
        String lower = variableSuffix.toLowerCase(Locale.ROOT);
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (c != '_') {
                name.append(c);
                continue;
            }
            int run = 1;
            while (i + run < lower.length() && lower.charAt(i + run) == '_') {
                run++;
            }
            if (run > 3) {
                throw new IllegalArgumentException("a run of more than three '_' in " + variableSuffix);
            }
            name.append(run == 1 ? '.' : run == 2 ? '_' : '-');
            i += run - 1;
        }
        return name.toString();
    }

    private static String env(String name) {
        return "TABLESTREAM_" + name.toUpperCase(Locale.ROOT).replace('-', '_').replace('.', '_');
    }
}
