package io.tablestream.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Raw HTTP to the running server, for what the SDK cannot send: each request signed with
 * SharedKeyLite by the emulator account's key, as the service documents (the string to sign is the
 * date and the canonicalized resource {@code /account/account/path} under path-style addressing).
 */
public final class SignedHttp {
    private static final String ACCOUNT = "devstoreaccount1";

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String endpoint;
    private final byte[] key = Base64.getDecoder().decode(TablestreamServerExtension.EMULATOR_KEY);

    private SignedHttp(String endpoint) {
        this.endpoint = endpoint;
    }

    public static SignedHttp to(TablestreamServerExtension.RunningServer server) {
        return new SignedHttp(server.endpoint());
    }

    /** To the account endpoint {@code http://host:port/devstoreaccount1}. */
    public static SignedHttp to(String endpoint) {
        return new SignedHttp(endpoint);
    }

    /**
     * Sends {@code method} to {@code path} (below the account, e.g. {@code Tables} or {@code t1()},
     * already percent-encoded) with {@code body} (null for none; JSON unless a Content-Type is given)
     * and headers as name, value pairs, which replace the defaults of the same name.
     */
    public HttpResponse<String> send(String method, String path, String body, String... headers) {
        URI uri = URI.create(endpoint + "/" + path);
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(java.time.Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .header("x-ms-date", date)
                .header("x-ms-version", "2019-02-02")
                .header("DataServiceVersion", "3.0")
                .header("Accept", "application/json;odata=minimalmetadata")
                .header("Authorization", "SharedKeyLite " + ACCOUNT + ":" + sign(date + "\n/" + ACCOUNT + uri.getRawPath()));
        if (body != null) {
            request.setHeader("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.setHeader(headers[i], headers[i + 1]);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String sign(String stringToSign) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
