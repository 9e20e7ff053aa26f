package io.tablestream.server.tls;

import com.azure.core.http.HttpClient;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.tablestream.core.model.EmulatorAccount;
import io.tablestream.testsupport.TestCertificates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLSocket;

/** Clients of a server that speaks HTTPS with a certificate of a test CA: the official SDK's, and raw ones. */
final class HttpsClients {
    private HttpsClients() {
    }

    /** The emulator account's connection string for an https endpoint. */
    static String connectionString(String endpoint) {
        return EmulatorAccount.connectionString(endpoint);
    }

    /** The SDK's HTTP client (Netty, its default) trusting {@code ca} alone. */
    static HttpClient sdkHttpClient(TestCertificates ca) {
        try {
            SslContext tls = SslContextBuilder.forClient().trustManager(ca.certificate()).build();
            return new NettyAsyncHttpClientBuilder(reactor.netty.http.client.HttpClient.create()
                    .secure(spec -> spec.sslContext(tls))).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An SDK client of the emulator account at {@code endpoint} (https), trusting {@code ca}, never retrying. */
    static TableServiceClient sdk(String endpoint, TestCertificates ca) {
        return new TableServiceClientBuilder().connectionString(connectionString(endpoint)).httpClient(sdkHttpClient(ca))
                .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1)))).buildClient();
    }

    /** A plain JDK HTTP client trusting {@code ca}. */
    static java.net.http.HttpClient jdk(TestCertificates ca) {
        return java.net.http.HttpClient.newBuilder().sslContext(ca.clientContext())
                .version(java.net.http.HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** GET {@code uri} with {@code client}: the status. */
    static int status(java.net.http.HttpClient client, String uri) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The certificate a new TLS connection to 127.0.0.1:{@code port} is shown (verified against {@code ca}). */
    static X509Certificate servedCertificate(TestCertificates ca, int port) throws IOException {
        try (SSLSocket socket = (SSLSocket) ca.clientContext().getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    /** The serial number of {@link #servedCertificate}. */
    static BigInteger servedSerial(TestCertificates ca, int port) throws IOException {
        return servedCertificate(ca, port).getSerialNumber();
    }
}
