package io.tablestream.server.tls;

import io.javalin.config.JettyConfig;
import io.tablestream.server.ConfigurationException;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS of one instance, when {@code tls-cert-file} is set: the HTTPS port of the Table service
 * (and, only when asked, a plain HTTP port beside it), the trust its forwarding to other instances
 * uses, and the watch that re-reads the certificate, key and trust files when they change, so
 * certificates are rotated without a restart. Every file is read before anything else starts, so a
 * missing or malformed one stops the server at once with a message naming it.
 *
 * <p>The instances of a cluster all speak HTTPS or all plain HTTP: an instance with a certificate
 * forwards to the others' advertised addresses over HTTPS, one without over plain HTTP.
 */
public final class ServerTls implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);

    private final SslContextFactory.Server sslContextFactory;
    private final PeerTrust peerTrust;
    private final FileWatch watch;
    private volatile ServerCertificate certificate;
    private ServerConnector plainConnector;

    private ServerTls(ServerCertificate certificate, PeerTrust peerTrust, FileWatch watch) {
        this.certificate = certificate;
        this.peerTrust = peerTrust;
        this.watch = watch;
        this.sslContextFactory = new SslContextFactory.Server();
        sslContextFactory.setKeyStore(certificate.keyStore());
        sslContextFactory.setKeyStorePassword(ServerCertificate.STORE_PASSWORD);
        sslContextFactory.setKeyManagerPassword(ServerCertificate.STORE_PASSWORD);
    }

    /**
     * The TLS {@code config} asks for, its files read and checked, their watch started; empty when
     * {@code tls-cert-file} is not set (plain HTTP). A {@link ConfigurationException} says what is wrong.
     */
    public static Optional<ServerTls> from(ServerConfig config) {
        String cert = config.get(ServerSettings.TLS_CERT_FILE).strip();
        String key = config.get(ServerSettings.TLS_KEY_FILE).strip();
        String trust = config.get(ServerSettings.TLS_TRUST_FILE).strip();
        int plainPort = config.get(ServerSettings.PLAIN_HTTP_PORT);
        if (cert.isEmpty() != key.isEmpty()) {
            throw new ConfigurationException("tls-cert-file and tls-key-file go together: set both (HTTPS) or"
                    + " neither (plain HTTP); only " + (cert.isEmpty() ? "tls-key-file" : "tls-cert-file") + " is set");
        }
        if (cert.isEmpty()) {
            if (!trust.isEmpty()) {
                throw new ConfigurationException("tls-trust-file is set but tls-cert-file is not: instances forward"
                        + " to each other over HTTPS only when they serve HTTPS themselves");
            }
            if (plainPort != -1) {
                throw new ConfigurationException("plain-http-port is set but tls-cert-file is not: without a"
                        + " certificate the port (" + config.get(ServerSettings.PORT) + ") serves plain HTTP already");
            }
            return Optional.empty();
        }
        if (plainPort < -1 || plainPort > 65_535) {
            throw new ConfigurationException("plain-http-port " + plainPort + ": a port (0 picks a free one) or -1");
        }
        Path certFile = Path.of(cert).toAbsolutePath();
        Path keyFile = Path.of(key).toAbsolutePath();
        ServerCertificate certificate = ServerCertificate.read(certFile, ServerSettings.TLS_CERT_FILE.name(), keyFile,
                ServerSettings.TLS_KEY_FILE.name());
        Path trustFile = trust.isEmpty() ? null : Path.of(trust).toAbsolutePath();
        PeerTrust peerTrust = trustFile == null ? PeerTrust.jvmDefault()
                : PeerTrust.of(trustFile, ServerSettings.TLS_TRUST_FILE.name());
        FileWatch watch = new FileWatch(Duration.ofMillis(Math.max(1, config.get(ServerSettings.TLS_RELOAD_CHECK_MS))));
        ServerTls tls = new ServerTls(certificate, peerTrust, watch);
        LOG.info("HTTPS with the certificate {} of {}", certificate.describe(), certFile);
        tls.warnIfNotValidNow();
        watch.watch("The TLS certificate (tls-cert-file " + certFile + ", tls-key-file " + keyFile + ")",
                List.of(certFile, keyFile), () -> tls.reloadCertificate(certFile, keyFile));
        if (trustFile != null) {
            LOG.info("Other instances are trusted when their certificates were issued by a CA of {}", trustFile);
            watch.watch("The trust file (tls-trust-file " + trustFile + ")", List.of(trustFile), () -> {
                peerTrust.replace(PemFiles.certificates(trustFile, ServerSettings.TLS_TRUST_FILE.name()));
                LOG.info("Now trusting the CA certificates of {} for other instances", trustFile);
            });
        }
        return Optional.of(tls);
    }

    /**
     * Adds the HTTPS connector on {@code host}:{@code port} (0 picks a free port), first so it is the
     * server's {@code port()}, and the plain HTTP one on {@code plainPort} unless that is -1.
     */
    public void addConnectors(JettyConfig jetty, String host, int port, int plainPort) {
        jetty.addConnector((server, httpConfig) -> {
            HttpConfiguration https = new HttpConfiguration(httpConfig);
            https.setSecureScheme("https");
            https.addCustomizer(new SecureRequestCustomizer());
            ServerConnector connector = new ServerConnector(server,
                    new SslConnectionFactory(sslContextFactory, HttpVersion.HTTP_1_1.asString()),
                    new HttpConnectionFactory(https));
            connector.setHost(host);
            connector.setPort(port);
            return connector;
        });
        if (plainPort != -1) {
            jetty.addConnector((server, httpConfig) -> {
                ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(httpConfig));
                connector.setHost(host);
                connector.setPort(plainPort);
                plainConnector = connector;
                return connector;
            });
        }
    }

    /** The plain HTTP port once the server runs, or -1 when there is none. */
    public int plainHttpPort() {
        return plainConnector == null ? -1 : plainConnector.getLocalPort();
    }

    /** How this instance reaches the others: over HTTPS, trusting what {@code tls-trust-file} says. */
    public SSLContext peerSslContext() {
        return peerTrust.sslContext();
    }

    /** The certificate served now. */
    public ServerCertificate certificate() {
        return certificate;
    }

    private void reloadCertificate(Path certFile, Path keyFile) {
        ServerCertificate next = ServerCertificate.read(certFile, ServerSettings.TLS_CERT_FILE.name(), keyFile,
                ServerSettings.TLS_KEY_FILE.name());
        try {
            sslContextFactory.reload(factory -> factory.setKeyStore(next.keyStore()));
        } catch (Exception e) {
            throw new ConfigurationException("the new certificate cannot be served: " + e.getMessage(), e);
        }
        certificate = next;
        LOG.info("Now serving the TLS certificate {} (re-read from {})", next.describe(), certFile);
        warnIfNotValidNow();
    }

    private void warnIfNotValidNow() {
        String problem = certificate.validityProblem(Clock.systemUTC().instant());
        if (problem != null) {
            LOG.warn("The TLS certificate {} {}: clients will refuse it", certificate.describe(), problem);
        }
    }

    /** Checks the watched files for changes now (the watch does so every {@code tls-reload-check-ms}). */
    void checkFilesNow() {
        watch.checkAll();
    }

    @Override
    public void close() {
        watch.close();
    }
}
