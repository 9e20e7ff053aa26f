package io.tablestream.server;

import io.tablestream.core.model.EmulatorAccount;
import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import io.tablestream.client.SharedKeySigning;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The tests' one raw HTTP client, for what the SDK cannot send or does not show: hand-made requests
 * to the emulator account, signed by {@link SharedKeySigning} — SharedKeyLite by default, SharedKey
 * when asked — or not signed at all. Requests go over {@link HttpClient}, or byte for
 * byte over a socket for what it refuses to send (a malformed path, a body cut short, broken
 * framing), on a new connection or a kept-alive one.
 */
public final class RawTableClient {
    public static final String ACCOUNT = "devstoreaccount1";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT).build();

    /** How a request proves who sent it. */
    public enum Signing { SHARED_KEY_LITE, SHARED_KEY, NONE }

    private final String host;
    private final int port;
    private final byte[] key;
    private final Signing signing;
    /** The client of {@link Request#send()}: plain HTTP, or HTTPS trusting what {@link #overHttps} says. */
    private final HttpClient http;
    private final String scheme;

    private RawTableClient(String host, int port, byte[] key, Signing signing, HttpClient http, String scheme) {
        this.host = host;
        this.port = port;
        this.key = key;
        this.signing = signing;
        this.http = http;
        this.scheme = scheme;
    }

    private RawTableClient(String host, int port, byte[] key, Signing signing) {
        this(host, port, key, signing, HTTP, "http");
    }

    /** Requests signed with SharedKeyLite by the emulator account's key. */
    public RawTableClient(int port) {
        this("127.0.0.1", port);
    }

    /** Requests to a server listening at {@code host}, signed as {@link #RawTableClient(int)}'s. */
    public RawTableClient(String host, int port) {
        this(host, port, Base64.getDecoder().decode(EmulatorAccount.KEY), Signing.SHARED_KEY_LITE);
    }

    public static RawTableClient to(TablestreamServerExtension.RunningServer server) {
        return new RawTableClient(server.port());
    }

    /** The same client signing with {@code base64Key}, which need not be the account's. */
    public RawTableClient withKey(String base64Key) {
        return new RawTableClient(host, port, Base64.getDecoder().decode(base64Key), signing, http, scheme);
    }

    /** The same client signing every request this way (each request may still choose otherwise). */
    public RawTableClient signing(Signing how) {
        return new RawTableClient(host, port, key, how, http, scheme);
    }

    /**
     * The same client speaking HTTPS, trusting the certificates {@code tls} does, for what it sends
     * with {@link Request#send()} and {@link Request#sendAsync()} (the socket-level methods stay plain).
     */
    public RawTableClient overHttps(javax.net.ssl.SSLContext tls) {
        return new RawTableClient(host, port, key, signing, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(TIMEOUT).sslContext(tls).build(), "https");
    }

    public int port() {
        return port;
    }

    /** {@code target}: the raw (already encoded) path and query below the account, e.g. {@code Tables?$top=1}. */
    public Request request(String method, String target) {
        return new Request(method, "/" + ACCOUNT + "/" + target);
    }

    public Request get(String target) {
        return request("GET", target);
    }

    /** A request to a whole raw path and query, e.g. {@code /otheraccount/t} or {@code /devstoreaccount1?comp=x}. */
    public Request requestAt(String method, String pathAndQuery) {
        return new Request(method, pathAndQuery);
    }

    /**
     * Sends {@code method} to {@code target} (below the account) with {@code body} (null for none;
     * JSON unless a Content-Type is given) and headers as name, value pairs, which replace the
     * defaults of the same name.
     */
    public Response send(String method, String target, String body, String... headers) {
        Request r = request(method, target);
        if (body != null) {
            r.body(body);
        }
        for (int i = 0; i < headers.length; i += 2) {
            r.set(headers[i], headers[i + 1]);
        }
        return r.send();
    }

    /** GET {@code target} (below the account) with headers as name, value pairs replacing the defaults. */
    public Response read(String target, String... headers) {
        return send("GET", target, null, headers);
    }

    /** A query parameter value, percent-encoded as the SDKs do (a space as %20). */
    public static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** {@code name=value} pairs as a query string, each value percent-encoded. */
    public static String query(String... namesAndValues) {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            pairs.add(namesAndValues[i] + "=" + encode(namesAndValues[i + 1]));
        }
        return String.join("&", pairs);
    }

    /** A request being put together; headers keep their order and may repeat. */
    public final class Request {
        private final String method;
        private final String rawPath;
        private final String rawQuery;
        private final List<String[]> headers = new ArrayList<>();
        private byte[] body;
        private Signing signing = RawTableClient.this.signing;
        private String date = SharedKeySigning.httpDate(ZonedDateTime.now());
        private String version = "2020-12-06";
        private String dataServiceVersion = "3.0";
        private String accept = "application/json;odata=minimalmetadata";
        private String contentType = "application/json";

        private Request(String method, String pathAndQuery) {
            this.method = method;
            int q = pathAndQuery.indexOf('?');
            this.rawPath = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
            this.rawQuery = q < 0 ? null : pathAndQuery.substring(q + 1);
        }

        /** Adds a header (after the generated ones; a name may repeat). */
        public Request header(String name, String value) {
            headers.add(new String[] {name, value});
            return this;
        }

        /** Sets a header: replaces the generated one of that name (Accept, x-ms-date, ...), else adds it. */
        public Request set(String name, String value) {
            switch (name.toLowerCase(Locale.ROOT)) {
                case "accept" -> accept = value;
                case "content-type" -> contentType = value;
                case "x-ms-date" -> date = value;
                case "x-ms-version" -> version = value;
                case "dataserviceversion" -> dataServiceVersion = value;
                default -> header(name, value);
            }
            return this;
        }

        public Request body(String json) {
            return body(json.getBytes(StandardCharsets.UTF_8));
        }

        public Request body(byte[] bytes) {
            this.body = bytes;
            return this;
        }

        /** null sends no Content-Type. */
        public Request contentType(String value) {
            this.contentType = value;
            return this;
        }

        /** null sends no Accept. */
        public Request accept(String value) {
            this.accept = value;
            return this;
        }

        /** null sends no x-ms-date. */
        public Request date(String value) {
            this.date = value;
            return this;
        }

        /** No Authorization header (other headers may still carry one). */
        public Request unsigned() {
            return signing(Signing.NONE);
        }

        public Request signing(Signing how) {
            this.signing = how;
            return this;
        }

        public String method() {
            return method;
        }

        public String rawPath() {
            return rawPath;
        }

        private String comp() {
            if (rawQuery == null) {
                return null;
            }
            for (String p : rawQuery.split("&")) {
                if (p.startsWith("comp=")) {
                    return p.substring(5);
                }
            }
            return null;
        }

        private String pathAndQuery() {
            return rawPath + (rawQuery == null ? "" : "?" + rawQuery);
        }

        /** Every header this request sends, the generated ones first. */
        public List<String[]> allHeaders() {
            List<String[]> all = new ArrayList<>();
            if (version != null) {
                all.add(new String[] {"x-ms-version", version});
            }
            if (dataServiceVersion != null) {
                all.add(new String[] {"DataServiceVersion", dataServiceVersion});
            }
            if (accept != null) {
                all.add(new String[] {"Accept", accept});
            }
            if (date != null) {
                all.add(new String[] {"x-ms-date", date});
            }
            String sentContentType = body != null && contentType != null ? contentType : null;
            switch (signing) {
                case SHARED_KEY_LITE -> all.add(new String[] {"Authorization",
                        SharedKeySigning.sharedKeyLite(ACCOUNT, key, date, rawPath, comp())});
                case SHARED_KEY -> all.add(new String[] {"Authorization",
                        SharedKeySigning.sharedKey(ACCOUNT, key, method, null, sentContentType, date, rawPath,
                                comp())});
                case NONE -> { }
            }
            if (sentContentType != null) {
                all.add(new String[] {"Content-Type", sentContentType});
            }
            all.addAll(headers);
            return all;
        }

        HttpRequest toHttpRequest() {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(scheme + "://" + host + ":" + port + pathAndQuery()))
                    .timeout(TIMEOUT)
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            for (String[] h : allHeaders()) {
                b.header(h[0], h[1]);
            }
            return b.build();
        }

        /** Sends it with {@link HttpClient}. */
        public Response send() {
            try {
                return Response.of(http.send(toHttpRequest(), HttpResponse.BodyHandlers.ofByteArray()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        public CompletableFuture<Response> sendAsync() {
            return http.sendAsync(toHttpRequest(), HttpResponse.BodyHandlers.ofByteArray()).thenApply(Response::of);
        }

        /** The request as bytes on the wire (with Host, Content-Length and Connection: close). */
        public byte[] toBytes() {
            return toBytes(true);
        }

        /** The request as bytes on the wire for a kept-alive connection (no Connection header). */
        public byte[] toKeepAliveBytes() {
            return toBytes(false);
        }

        private byte[] toBytes(boolean close) {
            List<String> extra = new ArrayList<>();
            if (body != null) {
                extra.add("Content-Length: " + body.length);
            }
            if (close) {
                extra.add("Connection: close");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(head(extra.toArray(String[]::new)));
            if (body != null) {
                out.writeBytes(body);
            }
            return out.toByteArray();
        }

        /**
         * Only the request line and headers, then {@code extraHeaders} ("Name: value" each) and the
         * blank line: no Content-Length, no Connection header, no body — for framing made by hand.
         */
        public byte[] head(String... extraHeaders) {
            StringBuilder head = new StringBuilder(method).append(' ').append(pathAndQuery())
                    .append(" HTTP/1.1\r\nHost: ").append(host).append(':').append(port).append("\r\n");
            for (String[] h : allHeaders()) {
                head.append(h[0]).append(": ").append(h[1]).append("\r\n");
            }
            for (String h : extraHeaders) {
                head.append(h).append("\r\n");
            }
            return head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
        }

        /** Sends it byte for byte over a new socket, bypassing HttpClient's checks. */
        public Response sendOverSocket() {
            return exchange(toBytes());
        }
    }

    /** Writes {@code request} on a new connection and reads the answer until the server closes it. */
    public Response exchange(byte[] request) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) TIMEOUT.toMillis());
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
                socket.shutdownOutput();
            } catch (IOException e) {
                // The server may answer and close before taking all of an oversized request: read its answer.
                return Response.parse(socket.getInputStream().readAllBytes());
            }
            return Response.parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Opens a connection, writes {@code partial}, and drops the connection without finishing. */
    public void abandon(byte[] partial) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) TIMEOUT.toMillis());
            socket.setSoLinger(true, 0); // a reset, as a client that dies mid-request
            socket.getOutputStream().write(partial);
            socket.getOutputStream().flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A kept-alive connection to the server, for several requests in a row. */
    public Connection connect() {
        try {
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress(host, port), (int) TIMEOUT.toMillis());
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            return new Connection(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One connection: each {@link #exchange} writes bytes and reads exactly one answer (framed by its
     * Content-Length or chunked encoding), leaving the connection open for the next.
     */
    public static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final BufferedInputStream in;

        private Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream());
        }

        /** Fails a read after {@code timeout} without an answer. */
        public Connection timeout(Duration timeout) {
            try {
                socket.setSoTimeout((int) timeout.toMillis());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        /** Writes {@code bytes} (a request, or part of one) without waiting for an answer. */
        public Connection write(byte[] bytes) {
            try {
                socket.getOutputStream().write(bytes);
                socket.getOutputStream().flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        /** Closes the sending half: the server reads the end of the stream. */
        public Connection halfClose() {
            try {
                socket.shutdownOutput();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        /**
         * Writes {@code request} and reads the answer — also when the server answered and closed
         * before taking all of it (a refused large body): the answer is then still there to read.
         */
        public Response exchange(byte[] request) {
            try {
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
            } catch (IOException e) {
                // read what the server answered before it stopped reading
            }
            return read();
        }

        /** Reads one answer; fails when the server closed the connection or said nothing in time. */
        public Response read() {
            try {
                ByteArrayOutputStream head = new ByteArrayOutputStream();
                int matched = 0;
                while (matched < 4) {
                    int b = in.read();
                    if (b < 0) {
                        throw new IllegalStateException("The server closed the connection after "
                                + head.size() + " bytes of an answer: " + head.toString(StandardCharsets.ISO_8859_1));
                    }
                    head.write(b);
                    matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
                }
                Response parsed = Response.parse(head.toByteArray());
                String length = parsed.header("Content-Length");
                String te = parsed.header("Transfer-Encoding");
                byte[] body;
                if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
                    body = readChunked();
                } else if (length != null) {
                    body = in.readNBytes(Integer.parseInt(length));
                } else if ("close".equalsIgnoreCase(parsed.header("Connection"))) {
                    body = in.readAllBytes();
                } else {
                    body = new byte[0];
                }
                return new Response(parsed.status(), parsed.headers(), body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Whether the server has closed its side (nothing more to read), waiting up to {@code wait}. */
        public boolean closedByServer(Duration wait) {
            try {
                socket.setSoTimeout((int) wait.toMillis());
                return in.read() < 0;
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                return true; // reset
            }
        }

        private byte[] readChunked() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                String line = readLine();
                int size = Integer.parseInt(line.split(";")[0].trim(), 16);
                if (size == 0) {
                    while (!readLine().isEmpty()) {
                        // trailers
                    }
                    return out.toByteArray();
                }
                out.write(in.readNBytes(size));
                readLine();
            }
        }

        private String readLine() throws IOException {
            StringBuilder line = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** An answer: status, headers (names case-insensitive) and the body's bytes. */
    public record Response(int status, Map<String, List<String>> headers, byte[] bytes) {
        static Response of(HttpResponse<byte[]> r) {
            Map<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            h.putAll(r.headers().map());
            return new Response(r.statusCode(), h, r.body());
        }

        /** An answer as it came over the wire (a chunked body is put together). */
        public static Response parse(byte[] raw) {
            int headEnd = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
            if (headEnd < 0) {
                throw new IllegalStateException("No complete response head in " + raw.length + " bytes: "
                        + new String(raw, StandardCharsets.ISO_8859_1));
            }
            String[] lines = new String(raw, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            Map<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                h.computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).trim());
            }
            byte[] rest = Arrays.copyOfRange(raw, headEnd + 4, raw.length);
            List<String> te = h.get("Transfer-Encoding");
            if (te != null && te.get(0).toLowerCase(Locale.ROOT).contains("chunked")) {
                rest = dechunk(rest);
            }
            return new Response(status, h, rest);
        }

        private static byte[] dechunk(byte[] chunked) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int pos = 0;
            while (pos < chunked.length) {
                int lineEnd = indexOf(chunked, "\r\n".getBytes(StandardCharsets.US_ASCII), pos);
                int size = Integer.parseInt(new String(chunked, pos, lineEnd - pos, StandardCharsets.US_ASCII)
                        .split(";")[0].trim(), 16);
                pos = lineEnd + 2;
                if (size == 0) {
                    break;
                }
                out.write(chunked, pos, size);
                pos += size + 2;
            }
            return out.toByteArray();
        }

        private static int indexOf(byte[] haystack, byte[] needle, int from) {
            outer:
            for (int i = from; i + needle.length <= haystack.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (haystack[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }

        /** The first value of a header, or null. */
        public String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        public String errorCode() {
            return header("x-ms-error-code");
        }

        /** The body as UTF-8 text. */
        public String body() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        /** The body as a JSON object. */
        @SuppressWarnings("unchecked")
        public Map<String, Object> json() {
            try (JsonReader reader = JsonProviders.createReader(bytes)) {
                reader.nextToken();
                return (Map<String, Object>) reader.readUntyped();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The {@code value} array of a feed, each row a JSON object in order. */
        @SuppressWarnings("unchecked")
        public List<Map<String, Object>> rows() {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Object o : (List<Object>) json().get("value")) {
                rows.add(new LinkedHashMap<>((Map<String, Object>) o));
            }
            return rows;
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + body();
        }
    }
}
