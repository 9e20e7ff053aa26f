package io.tablestream.bench.workload;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tablestream.core.model.EmulatorAccount;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Warms the driver's own JVM before it measures anything: the SDK's single inserts, merges, replaces
 * and point reads, one at a time, against a stand-in Table endpoint inside this JVM that answers each
 * as a Table service would (204 with an ETag; an entity for a read) and keeps nothing. The SDK's code
 * (signing, its HTTP client, its answers' parsing) is then compiled before the measured server is
 * met, and that server sees no request from it: its age and state stay what the run says they are.
 *
 * <p>Why: a sequential SDK client in a new JVM runs its own code interpreted and compiles it on the
 * same cores as the server; both Azurite's and Tablestream's sequential rates were about twice as high
 * with a warmed client (docs/performance.md, "Sequential SDK writes: the driver's JVM, then the
 * gaps between requests").
 */
final class ClientWarmUp {
    private static final Pattern KEYS = Pattern.compile("PartitionKey='([^']*)',RowKey='([^']*)'");
    private static final String ETAG = "W/\"datetime'2026-01-01T00%3A00%3A00.0000000Z'\"";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private ClientWarmUp() {
    }

    /** Requests, one at a time, for {@code time}; returns how many were answered. */
    static long run(Duration time) throws IOException {
        // Nagle's algorithm off, or an answer written in two pieces waits for the client's delayed ACK
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        server.setExecutor(threads);
        server.createContext("/", ClientWarmUp::answer);
        server.start();
        try {
            String endpoint = "http://127.0.0.1:" + server.getAddress().getPort() + "/" + EmulatorAccount.NAME;
            TableClient table = new TableClientBuilder().connectionString(EmulatorAccount.connectionString(endpoint))
                    .tableName("WarmUp").buildClient();
            long deadline = System.nanoTime() + time.toNanos();
            long done = 0;
            for (long k = 0; System.nanoTime() < deadline; k++) {
                String pk = KeyLayout.partitionKey("warm", k % 100);
                String rk = KeyLayout.rowKey(k / 100);
                table.createEntityWithResponse(SyntheticEntities.entity(pk, rk), TIMEOUT, null);
                TableEntity update = new TableEntity(pk, rk).setProperties(SyntheticEntities.properties(pk, rk));
                table.updateEntityWithResponse(update, k % 2 == 0 ? TableEntityUpdateMode.MERGE
                        : TableEntityUpdateMode.REPLACE, false, TIMEOUT, null);
                table.getEntityWithResponse(pk, rk, null, TIMEOUT, null);
                done += 3;
            }
            return done;
        } finally {
            server.stop(0);
            threads.shutdownNow();
        }
    }

    /** A read gets the entity its URL names; any other request a 204 with an ETag. */
    private static void answer(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            in.readAllBytes();
        }
        var headers = exchange.getResponseHeaders();
        headers.add("x-ms-request-id", "00000000-0000-0000-0000-000000000000");
        headers.add("x-ms-version", "2020-12-06");
        headers.add("Date", "Thu, 01 Jan 2026 00:00:00 GMT");
        headers.add("ETag", ETAG);
        if (!exchange.getRequestMethod().equals("GET")) {
            headers.add("Preference-Applied", "return-no-content");
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
            return;
        }
        Matcher keys = KEYS.matcher(URLDecoder.decode(exchange.getRequestURI().getRawPath(), StandardCharsets.UTF_8));
        String pk = keys.find() ? keys.group(1) : "";
        String rk = pk.isEmpty() ? "" : keys.group(2);
        byte[] body = ("{\"odata.metadata\":\"http://127.0.0.1/" + EmulatorAccount.NAME
                + "/$metadata#WarmUp/@Element\",\"odata.etag\":\"" + ETAG.replace("\"", "\\\"")
                + "\",\"PartitionKey\":\"" + pk + "\",\"RowKey\":\"" + rk
                + "\",\"Timestamp\":\"2026-01-01T00:00:00.0000000Z\",\"Label\":\"warm\",\"Quantity\":7}")
                .getBytes(StandardCharsets.UTF_8);
        headers.add("Content-Type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
