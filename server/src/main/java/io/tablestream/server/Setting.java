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

    static Setting<Integer> integer(String name, int defaultValue, String description) {
        return new Setting<>(name, env(name), Integer.class, defaultValue, description, s -> Integer.parseInt(s.strip()));
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

    private static String env(String name) {
        return "TABLESTREAM_" + name.toUpperCase(Locale.ROOT).replace('-', '_').replace('.', '_');
    }
}
