package io.tablestream.server.operate;

import io.javalin.http.Context;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The web console's files under {@code /_console/}, from the server's resources ({@code console/}):
 * a fixed list read once at start, so nothing else of the class path can be named. They hold no
 * secret: the console asks its user for an account key or a SAS and signs its own requests to the
 * Table service (see console.js). Answers carry an ETag (a revalidation is a 304) and a content
 * security policy that lets the page load nothing but these files and talk to nothing but this
 * server.
 */
final class ConsoleFiles implements OperationHandler {
    static final String PREFIX = "/_console/";
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html;charset=utf-8",
            "js", "text/javascript;charset=utf-8",
            "css", "text/css;charset=utf-8",
            "svg", "image/svg+xml");
    /** The console's files, by the name they are served at (the empty name is the page). */
    static final String[] FILES = {"index.html", "console.css", "console.js", "ui.js", "signing.js", "filters.js",
            "table.js", "entity.js", "feed.js", "sas.js", "transfer.js", "jobs.js", "charts.js", "favicon.svg"};
    /** The charting library (uPlot), from its WebJar on the class path: served name → file in the package. */
    static final Map<String, String> CHART_LIBRARY = Map.of(
            "uPlot.iife.min.js", "dist/uPlot.iife.min.js",
            "uPlot.min.css", "dist/uPlot.min.css");
    private static final String CHART_WEBJAR = "org.webjars.npm/uplot";
    private static final String SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private record File(byte[] body, String type, String etag) {
    }

    private final Map<String, File> files = new LinkedHashMap<>();

    ConsoleFiles() {
        for (String name : FILES) {
            add(name, read("console/" + name));
        }
        String library = "META-INF/resources/webjars/uplot/" + webJarVersion(CHART_WEBJAR) + "/";
        CHART_LIBRARY.forEach((name, path) -> add(name, read(library + path)));
        files.put("", files.get("index.html"));
    }

    private void add(String name, byte[] body) {
        String extension = name.substring(name.lastIndexOf('.') + 1);
        files.put(name, new File(body, TYPES.get(extension), "\"" + sha256(body).substring(0, 16) + "\""));
    }

    /** The version of the WebJar {@code groupAndArtifact} on the class path, from its Maven properties. */
    private static String webJarVersion(String groupAndArtifact) {
        Properties properties = new Properties();
        try {
            properties.load(new java.io.ByteArrayInputStream(read("META-INF/maven/" + groupAndArtifact + "/pom.properties")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }

    @Override
    public void handle(RequestContext request, Context http) {
        String uri = http.req().getRequestURI();
        File file = uri.startsWith(PREFIX) ? files.get(uri.substring(PREFIX.length())) : null;
        if (file == null) {
            throw TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND, "The console has no file " + uri + ".");
        }
        ResponseHeaders.standard(http, request);
        http.header("ETag", file.etag());
        http.header("Content-Security-Policy", SECURITY_POLICY);
        http.header("Referrer-Policy", "no-referrer");
        http.header("X-Frame-Options", "DENY");
        if (file.etag().equals(http.header("If-None-Match"))) {
            http.status(304);
            return;
        }
        http.contentType(file.type());
        http.result(file.body());
    }

    /** {@code /_console} itself: to the page, whose relative links need the slash. */
    static OperationHandler redirect() {
        return (request, http) -> {
            ResponseHeaders.standard(http, request);
            http.header("Location", PREFIX);
            http.status(301);
        };
    }

    /** What {@code /_console/} answers when the console is off: a clear refusal saying how to turn it on. */
    static OperationHandler off() {
        return (request, http) -> {
            throw TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND, "The console is off on this instance (it is"
                    + " off by default on a public bind): start the server with console=on (TABLESTREAM_CONSOLE=on).");
        };
    }

    private static byte[] read(String resource) {
        try (InputStream in = ConsoleFiles.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("The console resource " + resource + " is missing from the build");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
