package io.tablestream.server.cors;

import io.tablestream.server.TablestreamServerExtension;
import java.io.IOException;
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
 * Raw HTTP requests to the test server, signed with SharedKeyLite for the emulator account the
 * way the Table service defines it: {@code x-ms-date} and the canonicalized resource
 * ({@code /account} + the path, so with path-style addressing the account appears twice, plus
 * {@code ?comp=} when present) under HMAC-SHA256 of the account key.
 */
final class SharedKeyLiteRequests {
    static final String ACCOUNT = "devstoreaccount1";

    private final HttpClient client = HttpClient.newHttpClient();
    private final String base;

    SharedKeyLiteRequests(TablestreamServerExtension.RunningServer server) {
        this.base = "http://127.0.0.1:" + server.port();
    }

    /** A request builder for {@code pathAndQuery} (beginning {@code /devstoreaccount1}), unsigned. */
    HttpRequest.Builder unsigned(String method, String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .header("x-ms-version", "2019-02-02")
                .header("Accept", "application/json;odata=nometadata");
    }

    /** As {@link #unsigned}, signed with the account key. */
    HttpRequest.Builder signed(String method, String pathAndQuery) {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String resource = "/" + ACCOUNT + path;
        if (q >= 0) {
            for (String param : pathAndQuery.substring(q + 1).split("&")) {
                if (param.startsWith("comp=")) {
                    resource += "?" + param;
                }
            }
        }
        return unsigned(method, pathAndQuery)
                .header("x-ms-date", date)
                .header("Authorization", "SharedKeyLite " + ACCOUNT + ":" + sign(date + "\n" + resource));
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String sign(String stringToSign) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(TablestreamServerExtension.EMULATOR_KEY), "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
