package io.tablestream.bench;

import io.tablestream.client.LeanTableClient;
import io.tablestream.core.model.EmulatorAccount;
import java.util.HashMap;
import java.util.Map;

/**
 * What the HTTP benchmarks of this package take from their command line ({@code --name value}
 * pairs) and set up the same way: the endpoint (the emulator's by default), the server's process id
 * for its CPU, a lean client with an account SAS of the emulator account, a new table.
 */
final class BenchmarkArgs {
    private final Map<String, String> options;

    private BenchmarkArgs(Map<String, String> options) {
        this.options = options;
    }

    static BenchmarkArgs parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].substring(2), args[i + 1]);
        }
        return new BenchmarkArgs(options);
    }

    /** The option's value, or null when not given. */
    String get(String name) {
        return options.get(name);
    }

    String get(String name, String defaultValue) {
        return options.getOrDefault(name, defaultValue);
    }

    int integer(String name, int defaultValue) {
        String v = options.get(name);
        return v == null ? defaultValue : Integer.parseInt(v);
    }

    boolean flag(String name, boolean defaultValue) {
        String v = options.get(name);
        return v == null ? defaultValue : Boolean.parseBoolean(v);
    }

    /** {@code --endpoint}: the account's table endpoint. */
    String endpoint() {
        return get("endpoint", EmulatorAccount.TABLE_ENDPOINT);
    }

    /** {@code --server-pid}: the server's process, whose CPU is measured; -1 when not given. */
    long serverPid() {
        String v = options.get("server-pid");
        return v == null ? -1 : Long.parseLong(v);
    }

    /** A client of {@link #endpoint} with an account SAS of the emulator account. */
    LeanTableClient client() {
        String endpoint = endpoint();
        return new LeanTableClient(endpoint, LeanTableClient.accountSas(endpoint, EmulatorAccount.NAME,
                EmulatorAccount.KEY));
    }

    /** Creates a table named {@code prefix} and the time (base 36); returns its name. */
    static String newTable(LeanTableClient client, String prefix) {
        String table = prefix + Long.toString(System.currentTimeMillis(), 36);
        LeanTableClient.Answer created = client.createTable(table).join();
        if (created.status() != 201 && created.status() != 204) {
            throw new IllegalStateException("create table " + table + " answered " + created.status() + " "
                    + created.body());
        }
        return table;
    }
}
