package io.tablestream.server.queries;

import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import io.tablestream.server.TablestreamServerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Raw HTTP to the running server, for what the SDK cannot send or does not show (metadata levels,
 * continuation headers, session tokens, unsigned requests). Requests are signed with SharedKeyLite
 * as the REST reference describes it: {@code x-ms-date + "\n" + "/" + account + raw path}, plus
 * {@code ?comp=...} when the request has one (path-style, so the account appears twice).
 */
public final class SignedHttp {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String ACCOUNT = "devstoreaccount1";

    private final int port;
    private final String key;

    private SignedHttp(int port, String key) {
        this.port = port;
        this.key = key;
    }

    /** Requests signed with the emulator account's key. */
    public static SignedHttp signedFor(TablestreamServerExtension.RunningServer server) {
        return new SignedHttp(server.port(), TablestreamServerExtension.EMULATOR_KEY);
    }

    /** Requests signed with {@code base64Key}, which need not be the account's. */
    public static SignedHttp signedWith(TablestreamServerExtension.RunningServer server, String base64Key) {
        return new SignedHttp(server.port(), base64Key);
    }

    /** Requests with no credentials at all. */
    public static SignedHttp unsigned(TablestreamServerExtension.RunningServer server) {
        return new SignedHttp(server.port(), null);
    }

    /** {@code name=value} pairs as a query string, each value percent-encoded (spaces as %20). */
    public static String query(String... namesAndValues) {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            pairs.add(namesAndValues[i] + "=" + encode(namesAndValues[i + 1]));
        }
        return String.join("&", pairs);
    }

    public static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * GET {@code /devstoreaccount1/{resource}} with {@code query} (already encoded, may be empty) and
     * extra headers as name, value pairs. Accept defaults to minimal metadata unless given.
     */
    public Response get(String resource, String query, String... headers) {
        return send("GET", resource, query, null, headers);
    }

    /** A request with any method and an optional JSON body (Content-Type application/json unless given). */
    public Response send(String method, String resource, String query, String body, String... headers) {
        String path = "/" + ACCOUNT + "/" + resource;
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + path + (query.isEmpty() ? "" : "?" + query)))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .header("x-ms-version", "2019-02-02")
                .header("DataServiceVersion", "3.0;NetFx");
        boolean accept = false;
        boolean contentType = false;
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
            accept |= headers[i].equalsIgnoreCase("Accept");
            contentType |= headers[i].equalsIgnoreCase("Content-Type");
        }
        if (!accept) {
            b.header("Accept", "application/json;odata=minimalmetadata");
        }
        if (body != null && !contentType) {
            b.header("Content-Type", "application/json");
        }
        if (key != null) {
            String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
            String resourceToSign = "/" + ACCOUNT + path + compOf(query);
            b.header("x-ms-date", date);
            b.header("Authorization", "SharedKeyLite " + ACCOUNT + ":" + sign(date + "\n" + resourceToSign));
        }
        try {
            HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Response(r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String compOf(String query) {
        for (String pair : query.split("&")) {
            if (pair.startsWith("comp=")) {
                return "?" + pair;
            }
        }
        return "";
    }

    private String sign(String stringToSign) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(key), "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A response: status, headers (names case-insensitive through {@link #header}) and body. */
    public record Response(int status, Map<String, List<String>> headers, String body) {
        /** The first value of a header, or null. */
        public String header(String name) {
            for (Map.Entry<String, List<String>> h : headers.entrySet()) {
                if (h.getKey().equalsIgnoreCase(name) && !h.getValue().isEmpty()) {
                    return h.getValue().get(0);
                }
            }
            return null;
        }

        public String errorCode() {
            return header("x-ms-error-code");
        }

        /** The body as a JSON object. */
        @SuppressWarnings("unchecked")
        public Map<String, Object> json() {
            try (JsonReader reader = JsonProviders.createReader(body)) {
                reader.nextToken();
                return (Map<String, Object>) reader.readUntyped();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The {@code value} array of a feed, each row a JSON object in order. */
        @SuppressWarnings("unchecked")
        public List<Map<String, Object>> rows() {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Object o : (List<Object>) json().get("value")) {
                rows.add(new LinkedHashMap<>((Map<String, Object>) o));
            }
            return rows;
        }
    }
}
