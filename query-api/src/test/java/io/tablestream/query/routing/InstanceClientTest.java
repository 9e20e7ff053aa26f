package io.tablestream.query.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What one instance sends another and what it accepts back, against a real HTTP peer on loopback:
 * only the headers the owner needs travel, the answer is always asked for identity-coded whatever
 * the client accepted, and an answer in another content coding is refused, never read as the page.
 */
class InstanceClientTest {
    private HttpServer peer;
    private Instance instance;
    private final AtomicReference<com.sun.net.httpserver.Headers> received = new AtomicReference<>();
    private volatile boolean answerGzip;
    private InstanceClient client;

    @BeforeEach
    void startPeer() throws IOException {
        peer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peer.createContext("/", exchange -> {
            received.set(exchange.getRequestHeaders());
            byte[] body = "{\"value\":[]}".getBytes(StandardCharsets.UTF_8);
            if (answerGzip) {
                ByteArrayOutputStream zipped = new ByteArrayOutputStream();
                try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
                    gz.write(body);
                }
                body = zipped.toByteArray();
                exchange.getResponseHeaders().add("Content-Encoding", "gzip");
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        peer.start();
        instance = new Instance("127.0.0.1", peer.getAddress().getPort());
        client = new InstanceClient(Duration.ofSeconds(5), Duration.ofSeconds(1));
    }

    @AfterEach
    void stopPeer() {
        client.close();
        peer.stop(0);
    }

    @Test
    void asksForAnIdentityCodedAnswerWhateverTheClientAccepted() {
        InstanceClient.Answer answer = client.get(instance, uri(), Map.of("Accept-Encoding", List.of("gzip, deflate, br"),
                "x-ms-version", List.of("2019-02-02")), Duration.ZERO).join();

        assertThat(answer.status()).isEqualTo(200);
        assertThat(new String(answer.body(), StandardCharsets.UTF_8)).isEqualTo("{\"value\":[]}");
        assertThat(received.get().get("Accept-Encoding")).containsExactly("identity");
        assertThat(received.get().getFirst("x-ms-version")).isEqualTo("2019-02-02");
    }

    @Test
    void refusesAnAnswerInAContentCodingItDidNotAskFor() {
        answerGzip = true;

        assertThatThrownBy(() -> client.get(instance, uri(), Map.of(), Duration.ZERO).join())
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(InstanceClient.UnexpectedAnswerException.class)
                .hasMessageContaining("gzip");
        assertThat(client.isUnreachable(instance)).as("an instance that answered is reachable").isFalse();
    }

    @ParameterizedTest(name = "{0} travels: {1}")
    @CsvSource({
        "Authorization, true", "Date, true", "x-ms-date, true", "X-MS-Version, true", "x-ms-client-request-id, true",
        "x-ms-session-token, true", "Content-Type, true", "Content-MD5, true", "Accept, true",
        "DataServiceVersion, true", "MaxDataServiceVersion, true",
        "Accept-Encoding, false", "Accept-Charset, false", "Cookie, false", "Origin, false", "User-Agent, false",
        "Host, false", "Connection, false", "Transfer-Encoding, false", "If-None-Match, false",
        "x-tablestream-forwarded, false", "x-tablestream-partitions, false", "x-tablestream-row-budget, false",
        "x-tablestream-forwarded-client, false", "x-tablestream-forwarded-origin, false"})
    void onlyWhatTheOwnerNeedsToAuthenticateAndAnswerTravels(String header, boolean travels) {
        assertThat(ForwardedHeaders.travels(header)).isEqualTo(travels);
    }

    private URI uri() {
        return URI.create("http://127.0.0.1:" + peer.getAddress().getPort() + "/devstoreaccount1/t()");
    }
}
