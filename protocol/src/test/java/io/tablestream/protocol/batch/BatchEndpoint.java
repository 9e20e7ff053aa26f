package io.tablestream.protocol.batch;

import io.tablestream.core.model.EmulatorAccount;
import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A tiny Table endpoint on 127.0.0.1 for the official SDK to talk to over real HTTP: it records every
 * {@code $batch} request and answers with what the test's responder makes of it. Without a responder it
 * answers 400 with an {@code odata.error} body, which the SDK does not retry.
 */
final class BatchEndpoint implements AutoCloseable {
    static final String ACCOUNT = "devstoreaccount1";
    static final String KEY = EmulatorAccount.KEY;

    /** A {@code $batch} request as received. */
    record Received(String contentType, byte[] body) {
        BatchRequest parse() {
            return BatchRequest.parse(body, contentType);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Function<Received, BatchResponse> responder;

    BatchEndpoint() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Answers every later batch with {@code responder}'s response, status 202. */
    BatchEndpoint answering(Function<Received, BatchResponse> responder) {
        this.responder = responder;
        return this;
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + ACCOUNT;
    }

    TableClient client(String table) {
        return new TableClientBuilder()
                .endpoint(endpoint())
                .credential(new AzureNamedKeyCredential(ACCOUNT, KEY))
                .tableName(table)
                .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
                .buildClient();
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    Received last() {
        return received.get(received.size() - 1);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Received request = new Received(exchange.getRequestHeaders().getFirst("Content-Type"), body);
            received.add(request);
            Function<Received, BatchResponse> r = responder;
            if (r == null) {
                send(exchange, 400, "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
                        ("{\"odata.error\":{\"code\":\"InvalidInput\",\"message\":{\"lang\":\"en-US\","
                                + "\"value\":\"recorded only\"}}}").getBytes(StandardCharsets.UTF_8));
                return;
            }
            BatchResponse response = r.apply(request);
            send(exchange, 202, response.contentType(), response.body());
        } catch (RuntimeException e) {
            exchange.sendResponseHeaders(500, -1);
            throw e;
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        exchange.getResponseHeaders().set("x-ms-request-id", "5f3b1c2e-0000-0000-0000-000000000000");
        exchange.getResponseHeaders().set("x-ms-version", "2020-12-06");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
