package io.tablestream.server.tls;

import io.javalin.config.JettyConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
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
 * TLS of one instance (when it has a certificate): the HTTPS port of the Table service
 * (and, only when asked, a plain HTTP port beside it), the trust its forwarding to other instances
 * uses, and the watch that re-reads the certificate, key and trust files when they change, so
 * certificates are rotated without a restart. The server reads every file before anything else
 * starts, so a missing or malformed one stops it at once with a message naming it.
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
     * Reads and checks {@code certificate} and {@code key} (and {@code trust}, the CA certificates
     * other instances are trusted by, or null for the JVM's defaults) and starts watching them, every
     * {@code reloadCheck}, for changes; a {@link TlsFileException} says which file is wrong and how.
     */
    public static ServerTls start(TlsFile certificate, TlsFile key, TlsFile trust, Duration reloadCheck) {
        ServerCertificate served = ServerCertificate.read(certificate.path(), certificate.setting(), key.path(),
                key.setting());
        PeerTrust peerTrust = trust == null ? PeerTrust.jvmDefault() : PeerTrust.of(trust.path(), trust.setting());
        FileWatch watch = new FileWatch(reloadCheck);
        ServerTls tls = new ServerTls(served, peerTrust, watch);
        LOG.info("HTTPS with the certificate {} of {}", served.describe(), certificate);
        tls.warnIfNotValidNow();
        watch.watch("The TLS certificate (" + certificate + ", " + key + ")",
                List.of(certificate.path(), key.path()), () -> tls.reloadCertificate(certificate, key));
        if (trust != null) {
            LOG.info("Other instances are trusted when their certificates were issued by a CA of {}", trust);
            watch.watch("The trust file (" + trust + ")", List.of(trust.path()), () -> {
                peerTrust.replace(PemFiles.certificates(trust.path(), trust.setting()));
                LOG.info("Now trusting the CA certificates of {} for other instances", trust);
            });
        }
        return tls;
    }

    /**
     * Adds the HTTPS connector on {@code host}:{@code port} (0 picks a free port), first so it is the
     * server's {@code port()}, and the plain HTTP one on {@code plainPort} unless that is -1.
     */
    public void addConnectors(JettyConfig jetty, String host, int port, int plainPort) {
        jetty.addConnector((server, httpConfig) -> {
            HttpConfiguration https = new HttpConfiguration(httpConfig);
            https.setSecureScheme("https");
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            // Whether the certificate fits the name the client asked for is the client's to check
            // (every HTTPS client does); refusing here would only turn a client that chose not to
            // check (curl -k through another name) into a 400.
            secure.setSniHostCheck(false);
            https.addCustomizer(secure);
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

    private void reloadCertificate(TlsFile certificateFile, TlsFile keyFile) {
        ServerCertificate next = ServerCertificate.read(certificateFile.path(), certificateFile.setting(),
                keyFile.path(), keyFile.setting());
        try {
            sslContextFactory.reload(factory -> factory.setKeyStore(next.keyStore()));
        } catch (Exception e) {
            throw new TlsFileException(certificateFile + ": the new certificate cannot be served: " + e.getMessage(), e);
        }
        certificate = next;
        LOG.info("Now serving the TLS certificate {} (re-read from {})", next.describe(), certificateFile);
        warnIfNotValidNow();
    }

    private void warnIfNotValidNow() {
        String problem = certificate.validityProblem(Clock.systemUTC().instant());
        if (problem != null) {
            LOG.warn("The TLS certificate {} {}: clients will refuse it", certificate.describe(), problem);
        }
    }

    /** Checks the watched files for changes now (the watch does so every reload check interval). */
    void checkFilesNow() {
        watch.checkAll();
    }

    @Override
    public void close() {
        watch.close();
    }
}
