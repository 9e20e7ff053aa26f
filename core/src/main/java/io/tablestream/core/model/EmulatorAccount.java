package io.tablestream.core.model;

/**
 * The storage emulator's well-known account, which Tablestream serves by default so that an
 * application configured for the emulator ({@code UseDevelopmentStorage=true}) works unchanged. Its
 * key is published with every emulator: not a secret. The one place the server, the client and the
 * tools take it from.
 */
public final class EmulatorAccount {
    public static final String NAME = "devstoreaccount1";
    public static final String KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    /** Where the emulator (and a default Tablestream) serves the account's tables. */
    public static final String TABLE_ENDPOINT = "http://127.0.0.1:10002/" + NAME;

    private EmulatorAccount() {
    }

    /** The account's connection string with its tables at {@code tableEndpoint} (an http or https URL). */
    public static String connectionString(String tableEndpoint) {
        return "DefaultEndpointsProtocol=" + (tableEndpoint.startsWith("https:") ? "https" : "http") + ";AccountName="
                + NAME + ";AccountKey=" + KEY + ";TableEndpoint=" + tableEndpoint + ";";
    }
}
