package io.tablestream.protocol.auth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny HTTP server on 127.0.0.1 that records every request exactly as it arrives on the wire and
 * answers with a minimal plausible Table service response, so the official SDK can be pointed at it
 * and its signed requests captured.
 */
final class RecordingTableServer implements AutoCloseable {

    /** One request as received: method, raw path and raw query (both still percent-encoded), headers. */
    record Captured(String method, String rawPath, String rawQuery, Map<String, List<String>> headers,
                    InetAddress clientAddress) {
        SignedRequest toSignedRequest() {
            SignedRequest.Builder b = SignedRequest.builder()
                    .method(method)
                    .rawPath(rawPath)
                    .rawQuery(rawQuery)
                    .https(false)
                    .clientAddress(clientAddress);
            headers.forEach((name, values) -> values.forEach(v -> b.header(name, v)));
            return b.build();
        }

        String header(String name) {
            List<String> v = headers.get(name);
            return v == null || v.isEmpty() ? null : v.get(0);
        }
    }

    private final HttpServer server;
    private final List<Captured> captured = new CopyOnWriteArrayList<>();

    RecordingTableServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String endpoint(String account) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + account;
    }

    String connectionString(String account, String key) {
        return "DefaultEndpointsProtocol=http;AccountName=" + account + ";AccountKey=" + key
                + ";TableEndpoint=" + endpoint(account) + ";";
    }

    List<Captured> captured() {
        return new ArrayList<>(captured);
    }

    Captured last() {
        return captured.get(captured.size() - 1);
    }

    void clear() {
        captured.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream body = exchange.getRequestBody()) {
            body.readAllBytes();
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, List.copyOf(v)));
            captured.add(new Captured(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestURI().getRawQuery(), headers, exchange.getRemoteAddress().getAddress()));
            respond(exchange);
        }
    }

    private static void respond(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        String query = exchange.getRequestURI().getRawQuery();
        String contentType = "application/json;odata=minimalmetadata";
        String body;
        int status;
        if (query != null && query.contains("comp=acl")) {
            if (method.equals("GET")) {
                status = 200;
                contentType = "application/xml";
                body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers></SignedIdentifiers>";
            } else {
                status = 204;
                body = "";
            }
        } else if (query != null && query.contains("comp=properties")) {
            if (method.equals("GET")) {
                status = 200;
                contentType = "application/xml";
                body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties></StorageServiceProperties>";
            } else {
                status = 202;
                body = "";
            }
        } else if (path.endsWith("$batch") || path.endsWith("%24batch")) {
            status = 400;
            body = error("InvalidInput");
        } else if (method.equals("GET") && path.contains("(PartitionKey=")) {
            status = 200;
            body = "{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}";
        } else if (method.equals("GET")) {
            status = 200;
            body = "{\"value\":[]}";
        } else if (method.equals("POST") && path.endsWith("/Tables")) {
            status = 204;
            body = "";
        } else {
            status = 204;
            body = "";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.getResponseHeaders().add("x-ms-version", "2019-02-02");
        if (status >= 400) {
            exchange.getResponseHeaders().add("x-ms-error-code", "InvalidInput");
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static String error(String code) {
        return "{\"odata.error\":{\"code\":\"" + code + "\",\"message\":{\"lang\":\"en-US\",\"value\":\"x\"}}}";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
