package io.tablestream.query.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.tablestream.testsupport.TestCertificates;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Forwarding to an instance that serves HTTPS: its certificate must be issued by a trusted CA and
 * name the host it is reached at; anything else is an unreachable instance, never an answer.
 */
class InstanceClientTlsTest {
    private static final TestCertificates CA = TestCertificates.authority("InstanceClientTlsTest CA");

    private HttpsServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void anInstanceWithACertificateOfATrustedCaForItsAddressAnswers() throws Exception {
        Instance instance = serve(CA.issue("node-2", "127.0.0.1"));
        try (InstanceClient client = new InstanceClient(Duration.ofSeconds(5), Duration.ofSeconds(1),
                CA.clientContext())) {
            InstanceClient.Answer answer = client.get(instance, uri(instance), Map.of(), Duration.ZERO).join();

            assertThat(answer.status()).isEqualTo(200);
            assertThat(new String(answer.body(), StandardCharsets.UTF_8)).isEqualTo("hello over TLS");
        }
    }

    @Test
    void anInstanceWhoseCertificateNamesAnotherHostIsUnreachable() throws Exception {
        Instance instance = serve(CA.issue("node-2", "node-2.example", "10.9.9.9"));
        try (InstanceClient client = new InstanceClient(Duration.ofSeconds(5), Duration.ofSeconds(1),
                CA.clientContext())) {
            assertThatThrownBy(() -> client.get(instance, uri(instance), Map.of(), Duration.ZERO).join())
                    .isInstanceOf(CompletionException.class)
                    .cause().isInstanceOf(InstanceClient.UnreachableException.class)
                    .cause().isInstanceOf(SSLException.class);
        }
    }

    @Test
    void anInstanceWithACertificateOfAnotherCaIsUnreachable() throws Exception {
        Instance instance = serve(TestCertificates.authority("Someone else's CA").issue("node-2", "127.0.0.1"));
        try (InstanceClient client = new InstanceClient(Duration.ofSeconds(5), Duration.ofSeconds(1),
                CA.clientContext())) {
            assertThatThrownBy(() -> client.get(instance, uri(instance), Map.of(), Duration.ZERO).join())
                    .cause().isInstanceOf(InstanceClient.UnreachableException.class)
                    .cause().isInstanceOf(SSLException.class);
        }
    }

    private Instance serve(TestCertificates.Issued certificate) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("server", certificate.keys().getPrivate(), "pw".toCharArray(),
                new java.security.cert.X509Certificate[] {certificate.certificate(), certificate.issuer()});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, "pw".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context));
        server.createContext("/", exchange -> {
            byte[] body = "hello over TLS".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return new Instance("127.0.0.1", server.getAddress().getPort());
    }

    private static URI uri(Instance instance) {
        return new StreamsKeyLocator(null, null, "t.commands", 1, instance, 0, true)
                .uriOf(instance, "/devstoreaccount1/t()", null);
    }
}
