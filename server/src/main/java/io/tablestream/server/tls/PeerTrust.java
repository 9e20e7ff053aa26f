package io.tablestream.server.tls;

import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Which certificates this instance accepts from the other instances it forwards requests to: the
 * CA certificates of a PEM file ({@code tls-trust-file}), or the JVM's default trust store when no
 * file is set. The host name the instance is reached at (its advertised address) must be in its
 * certificate, as for any HTTPS client. The file can change while the server runs ({@link #replace}):
 * new connections are judged by the new set, so a CA can be added before certificates it issued are
 * rolled out and removed after.
 */
final class PeerTrust {
    private final AtomicReference<X509ExtendedTrustManager> current;
    private final SSLContext context;

    private PeerTrust(X509ExtendedTrustManager initial) {
        this.current = new AtomicReference<>(initial);
        try {
            context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new Delegating()}, null);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no TLS: " + e.getMessage(), e);
        }
    }

    /** Trust in the CA certificates of {@code file}. */
    static PeerTrust of(Path file, String setting) {
        return new PeerTrust(trustManager(PemFiles.certificates(file, setting)));
    }

    /** Trust as the JVM's default trust store says (its CAs, or {@code javax.net.ssl.trustStore}). */
    static PeerTrust jvmDefault() {
        return new PeerTrust(trustManager(null));
    }

    /** What a client of the other instances connects with. */
    SSLContext sslContext() {
        return context;
    }

    /** From now on, trust {@code certificates} (a re-read trust file). */
    void replace(List<X509Certificate> certificates) {
        current.set(trustManager(certificates));
    }

    /** A trust manager for {@code certificates} as trust anchors, or the JVM's default one for null. */
    static X509ExtendedTrustManager trustManager(List<X509Certificate> certificates) {
        try {
            KeyStore store = null;
            if (certificates != null) {
                store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                for (int i = 0; i < certificates.size(); i++) {
                    store.setCertificateEntry("ca-" + i, certificates.get(i));
                }
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            for (TrustManager m : factory.getTrustManagers()) {
                if (m instanceof X509ExtendedTrustManager x) {
                    return x;
                }
            }
            throw new IllegalStateException("the JVM's trust manager factory made no X.509 trust manager");
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot build a trust manager: " + e.getMessage(), e);
        }
    }

    /** Judges each connection by the trust manager current when it is made. */
    private final class Delegating extends X509ExtendedTrustManager {
        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            current.get().checkServerTrusted(chain, authType, engine);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            current.get().checkServerTrusted(chain, authType, socket);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            current.get().checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            current.get().checkClientTrusted(chain, authType, engine);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            current.get().checkClientTrusted(chain, authType, socket);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            current.get().checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return current.get().getAcceptedIssuers();
        }
    }
}
