package io.tablestream.client;

import io.tablestream.core.model.EmulatorAccount;
import java.net.URI;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A Table service account as a connection string names it: its URL, its name, and how requests are
 * authenticated — SharedKeyLite with the account key, or a SAS appended to every request.
 *
 * <p>Connection strings are Azure's: {@code AccountName}, {@code AccountKey}, {@code TableEndpoint},
 * {@code DefaultEndpointsProtocol}, {@code EndpointSuffix}, {@code SharedAccessSignature},
 * {@code UseDevelopmentStorage=true} (the emulator's account at {@code http://127.0.0.1:10002}).
 */
public final class TableAccount {
    /** The storage emulator's account at its usual address ({@code UseDevelopmentStorage=true}). */
    public static final String EMULATOR_CONNECTION_STRING = EmulatorAccount.connectionString(EmulatorAccount.TABLE_ENDPOINT);
    private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT);

    private final String endpoint;
    private final String name;
    private final byte[] key;
    private final String sas;
    private final SharedKeySigning signer;

    private TableAccount(String endpoint, String name, byte[] key, String sas) {
        this.endpoint = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        this.name = name;
        this.key = key;
        this.sas = sas;
        this.signer = key == null ? null : new SharedKeySigning(name, key);
    }

    /** The account a connection string names; {@link IllegalArgumentException} saying what is missing. */
    public static TableAccount parse(String connectionString) {
        Map<String, String> parts = new LinkedHashMap<>();
        for (String part : connectionString.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("The connection string part '" + part + "' is not name=value.");
            }
            parts.put(part.substring(0, eq).strip().toLowerCase(Locale.ROOT), part.substring(eq + 1).strip());
        }
        if ("true".equalsIgnoreCase(parts.get("usedevelopmentstorage"))) {
            return parse(EMULATOR_CONNECTION_STRING);
        }
        String name = parts.get("accountname");
        String endpoint = parts.get("tableendpoint");
        if (endpoint == null) {
            if (name == null) {
                throw new IllegalArgumentException("The connection string names neither TableEndpoint nor AccountName.");
            }
            endpoint = parts.getOrDefault("defaultendpointsprotocol", "https") + "://" + name + ".table."
                    + parts.getOrDefault("endpointsuffix", "core.windows.net");
        }
        if (name == null) {
            name = accountOf(endpoint);
        }
        String sas = parts.get("sharedaccesssignature");
        String key = parts.get("accountkey");
        if (key == null && sas == null) {
            throw new IllegalArgumentException("The connection string has neither AccountKey nor SharedAccessSignature.");
        }
        byte[] keyBytes = null;
        if (key != null) {
            try {
                keyBytes = Base64.getDecoder().decode(key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("The AccountKey is not base64.");
            }
        }
        return new TableAccount(endpoint, name, keyBytes, sas == null ? null : sas.startsWith("?") ? sas.substring(1) : sas);
    }

    /**
     * The account of an endpoint without AccountName: the first path segment (path-style, as the
     * emulator and Tablestream), else the host's first label (Azure's {@code <account>.table...}).
     */
    static String accountOf(String endpoint) {
        URI uri = URI.create(endpoint);
        String path = uri.getPath() == null ? "" : uri.getPath();
        String[] segments = path.split("/");
        for (String s : segments) {
            if (!s.isEmpty()) {
                return s;
            }
        }
        String host = uri.getHost();
        return host == null ? "" : host.substring(0, host.indexOf('.') < 0 ? host.length() : host.indexOf('.'));
    }

    /** The account's Table service URL, without a trailing slash. */
    public String endpoint() {
        return endpoint;
    }

    public String name() {
        return name;
    }

    /** The SAS every request carries (query string without '?'), or null when requests are signed with the key. */
    public String sas() {
        return sas;
    }

    /**
     * The {@code Authorization} header value of a request to {@code rawPath} (percent-encoded as
     * sent, e.g. {@code /devstoreaccount1/Orders()}) at {@code date} (its {@code x-ms-date}):
     * SharedKeyLite over the date and the canonicalized resource ({@code /account} + path, plus
     * {@code ?comp=} when {@code comp} is not null). Null when requests carry a SAS instead.
     */
    public String authorization(String date, String rawPath, String comp) {
        return signer == null ? null : signer.sharedKeyLite(date, rawPath, comp);
    }

    /** The current time as {@code x-ms-date} wants it (RFC 1123, GMT). */
    public static String now() {
        return RFC_1123.format(ZonedDateTime.now(ZoneOffset.UTC));
    }
}
