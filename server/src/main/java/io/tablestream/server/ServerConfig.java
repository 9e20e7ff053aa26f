package io.tablestream.server;

import io.tablestream.protocol.auth.AccountKeys;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The server's configuration: values by setting, read from system properties, the environment, an
 * optional properties file (keys as the setting names, e.g. {@code port=10002}), then defaults.
 */
public final class ServerConfig {
    private final Map<String, String> system;
    private final Map<String, String> environment;
    private final Map<String, String> file;
    private final Map<String, String> overrides = new HashMap<>();
    private volatile int brokersFound;

    private ServerConfig(Map<String, String> system, Map<String, String> environment, Map<String, String> file) {
        this.system = system;
        this.environment = environment;
        this.file = file;
    }

    /** From this process's system properties and environment, and {@code configFile} if not null. */
    public static ServerConfig load(Path configFile) {
        Map<String, String> sys = new HashMap<>();
        System.getProperties().forEach((k, v) -> sys.put(k.toString(), v.toString()));
        return new ServerConfig(sys, System.getenv(), readFile(configFile));
    }

    /** Only defaults and the given values (for tests and embedding). */
    public static ServerConfig of(Map<Setting<?>, ?> values) {
        ServerConfig config = new ServerConfig(Map.of(), Map.of(), Map.of());
        values.forEach((setting, value) -> config.overrides.put(setting.name(), String.valueOf(value)));
        return config;
    }

    public <T> T get(Setting<T> setting) {
        String raw = overrides.get(setting.name());
        String source = "override";
        if (raw == null) {
            raw = system.get(setting.propertyName());
            source = "system property " + setting.propertyName();
        }
        if (raw == null) {
            raw = environment.get(setting.environmentVariable());
            source = "environment variable " + setting.environmentVariable();
        }
        if (raw == null) {
            raw = file.get(setting.name());
            source = "configuration file key " + setting.name();
        }
        if (raw == null) {
            return setting.defaultValue();
        }
        try {
            return setting.parser().apply(raw);
        } catch (RuntimeException e) {
            throw new ConfigurationException("Invalid " + source + ": " + setting.description() + " (" + e.getMessage()
                    + ")", e);
        }
    }

    /**
     * The settings passed through to Kafka under {@code prefix} ({@link ServerSettings#KAFKA_PREFIX},
     * {@link ServerSettings#STREAMS_PREFIX}), by Kafka's name without the prefix: from the file
     * ({@code kafka.session.timeout.ms=...}), then the environment ({@code TABLESTREAM_KAFKA_SESSION_TIMEOUT_MS}),
     * then system properties ({@code -Dtablestream.kafka.session.timeout.ms=...}), then values given in code,
     * each overriding the one before.
     */
    public Map<String, String> passThrough(String prefix) {
        Map<String, String> values = new java.util.TreeMap<>();
        file.forEach((k, v) -> {
            if (k.startsWith(prefix) && k.length() > prefix.length()) {
                values.put(k.substring(prefix.length()), v);
            }
        });
        String envPrefix = Setting.passThroughEnvironmentPrefix(prefix);
        environment.forEach((k, v) -> {
            // TABLESTREAM_KAFKA_PORT is the setting kafka-port, not a pass-through
            if (k.startsWith(envPrefix) && k.length() > envPrefix.length()
                    && ServerSettings.ALL.stream().noneMatch(setting -> setting.environmentVariable().equals(k))) {
                values.put(Setting.passThroughName(k.substring(envPrefix.length())), v);
            }
        });
        String propertyPrefix = "tablestream." + prefix;
        system.forEach((k, v) -> {
            if (k.startsWith(propertyPrefix) && k.length() > propertyPrefix.length()) {
                values.put(k.substring(propertyPrefix.length()), v);
            }
        });
        overrides.forEach((k, v) -> {
            if (k.startsWith(prefix) && k.length() > prefix.length()) {
                values.put(k.substring(prefix.length()), v);
            }
        });
        return values;
    }

    /**
     * What every Kafka client of this instance is given: {@link FailoverClientSettings} for a cluster of
     * several brokers, then every {@code kafka.*} pass-through ({@link #passThrough}) over them.
     */
    public Map<String, String> kafkaClients() {
        Map<String, String> values = new java.util.TreeMap<>(
                FailoverClientSettings.forCluster(get(ServerSettings.KAFKA_BOOTSTRAP_SERVERS), brokersFound));
        values.putAll(passThrough(ServerSettings.KAFKA_PREFIX));
        return values;
    }

    /**
     * Records how many brokers the cluster said it has when the instance started (a cluster given by
     * one address), so that {@link #kafkaClients()} knows it is a cluster of several.
     */
    ServerConfig brokersFound(int brokers) {
        this.brokersFound = brokers;
        return this;
    }

    /** Sets a pass-through value in code ({@code kafka.<name>} or {@code streams.<name>}), for tests and embedding. */
    public ServerConfig with(String passThroughName, String value) {
        if (ServerSettings.PASS_THROUGH_PREFIXES.stream().noneMatch(passThroughName::startsWith)) {
            throw new IllegalArgumentException("not a pass-through setting: " + passThroughName);
        }
        overrides.put(passThroughName, value);
        return this;
    }

    /**
     * The accounts requests may sign for: the emulator's ({@code emulator-account}), those of
     * {@code accounts}, then {@code extra} (name to base64 key).
     */
    public AccountKeys accountKeys(Map<String, String> extra) {
        AccountKeys.Builder keys = AccountKeys.builder();
        if (get(ServerSettings.EMULATOR_ACCOUNT)) {
            keys.emulatorAccount();
        }
        for (String entry : get(ServerSettings.ACCOUNTS).split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            String[] parts = entry.strip().split(":");
            if (parts.length == 2) {
                keys.account(parts[0], parts[1]);
            } else if (parts.length == 3) {
                keys.account(parts[0], parts[1], parts[2]);
            } else {
                throw new IllegalArgumentException("An account is name:base64key[:base64key2]");
            }
        }
        extra.forEach(keys::account);
        return keys.build();
    }

    private static Map<String, String> readFile(Path path) {
        Map<String, String> values = new HashMap<>();
        if (path == null) {
            return values;
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(path)) {
            p.load(in);
        } catch (IOException e) {
            throw new ConfigurationException("Cannot read the configuration file " + path + " (" + e + ")", e);
        }
        p.forEach((k, v) -> values.put(k.toString(), v.toString()));
        return values;
    }
}
