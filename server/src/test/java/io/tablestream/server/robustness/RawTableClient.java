package io.tablestream.server.robustness;

import io.tablestream.server.TablestreamServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Sends what the SDK cannot: hand-made requests to the emulator account, signed with SharedKeyLite
 * (string-to-sign: the date, a line break, {@code /devstoreaccount1} + the raw path, plus
 * {@code ?comp=...} when the request has one) unless asked not to. Requests go over
 * {@link HttpClient}, or byte for byte over a socket for what it refuses to send (a malformed
 * path, a body cut short).
 */
final class RawTableClient {
    static final String ACCOUNT = "devstoreaccount1";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final byte[] KEY = Base64.getDecoder().decode(TablestreamServerExtension.EMULATOR_KEY);

    private final String host;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT).build();

    RawTableClient(int port) {
        this.host = "127.0.0.1";
        this.port = port;
    }

    int port() {
        return port;
    }

    /** {@code target}: the raw (already encoded) path and query below the account, e.g. {@code Tables?$top=1}. */
    Request request(String method, String target) {
        return new Request(method, target);
    }

    Request get(String target) {
        return request("GET", target);
    }

    /** A query parameter value, percent-encoded as the SDKs do (a space as %20). */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The RFC 1123 date of {@code time}, as x-ms-date wants it. */
    static String httpDate(ZonedDateTime time) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(time.withZoneSameInstant(ZoneOffset.UTC));
    }

    static String sharedKeyLite(String account, byte[] key, String date, String rawPath, String comp) {
        String stringToSign = date + "\n/" + account + rawPath + (comp == null ? "" : "?comp=" + comp);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return "SharedKeyLite " + account + ":"
                    + Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A request being put together; headers keep their order and may repeat. */
    final class Request {
        private final String method;
        private final String target;
        private final List<String[]> headers = new ArrayList<>();
        private byte[] body;
        private boolean signed = true;
        private String date = httpDate(ZonedDateTime.now());
        private String accept = "application/json;odata=minimalmetadata";
        private String contentType = "application/json";

        private Request(String method, String target) {
            this.method = method;
            this.target = target;
        }

        Request header(String name, String value) {
            headers.add(new String[] {name, value});
            return this;
        }

        Request body(String json) {
            return body(json.getBytes(StandardCharsets.UTF_8));
        }

        Request body(byte[] bytes) {
            this.body = bytes;
            return this;
        }

        /** null sends no Content-Type. */
        Request contentType(String value) {
            this.contentType = value;
            return this;
        }

        /** null sends no Accept. */
        Request accept(String value) {
            this.accept = value;
            return this;
        }

        Request date(String value) {
            this.date = value;
            return this;
        }

        /** No Authorization header (other headers may still carry one). */
        Request unsigned() {
            this.signed = false;
            return this;
        }

        String rawPath() {
            int q = target.indexOf('?');
            return "/" + ACCOUNT + "/" + (q < 0 ? target : target.substring(0, q));
        }

        private String comp() {
            int q = target.indexOf('?');
            if (q < 0) {
                return null;
            }
            for (String p : target.substring(q + 1).split("&")) {
                if (p.startsWith("comp=")) {
                    return p.substring(5);
                }
            }
            return null;
        }

        /** Every header this request sends, the generated ones first. */
        List<String[]> allHeaders() {
            List<String[]> all = new ArrayList<>();
            all.add(new String[] {"x-ms-version", "2020-12-06"});
            all.add(new String[] {"DataServiceVersion", "3.0"});
            if (accept != null) {
                all.add(new String[] {"Accept", accept});
            }
            if (date != null) {
                all.add(new String[] {"x-ms-date", date});
            }
            if (signed) {
                all.add(new String[] {"Authorization", sharedKeyLite(ACCOUNT, KEY, date, rawPath(), comp())});
            }
            if (body != null && contentType != null) {
                all.add(new String[] {"Content-Type", contentType});
            }
            all.addAll(headers);
            return all;
        }

        HttpRequest toHttpRequest() {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + rawPath()
                            + (target.indexOf('?') < 0 ? "" : target.substring(target.indexOf('?'))))).timeout(TIMEOUT)
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            for (String[] h : allHeaders()) {
                b.header(h[0], h[1]);
            }
            return b.build();
        }

        /** Sends it with {@link HttpClient}. */
        Response send() {
            try {
                return Response.of(http.send(toHttpRequest(), HttpResponse.BodyHandlers.ofByteArray()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        CompletableFuture<Response> sendAsync() {
            return http.sendAsync(toHttpRequest(), HttpResponse.BodyHandlers.ofByteArray()).thenApply(Response::of);
        }

        /** The request as bytes on the wire (with Host, Content-Length and Connection: close). */
        byte[] toBytes() {
            return toBytes(true);
        }

        /** The request as bytes on the wire for a kept-alive connection (no Connection header). */
        byte[] toKeepAliveBytes() {
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
        byte[] head(String... extraHeaders) {
            StringBuilder head = new StringBuilder(method).append(' ').append(rawPath())
                    .append(target.indexOf('?') < 0 ? "" : target.substring(target.indexOf('?')))
                    .append(" HTTP/1.1\r\nHost: ").append(host).append(':').append(port).append("\r\n");
            for (String[] h : allHeaders()) {
                head.append(h[0]).append(": ").append(h[1]).append("\r\n");
            }
            for (String h : extraHeaders) {
                head.append(h).append("\r\n");
            }
            return head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
        }

        /** Sends it byte for byte over a socket, bypassing HttpClient's checks. */
        Response sendOverSocket() {
            return exchange(toBytes());
        }
    }

    /** Writes {@code request} on a new connection and reads the answer until the server closes it. */
    Response exchange(byte[] request) {
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

    /** A kept-alive connection to the server, for several requests in a row. */
    Connection connect() {
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
    static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final java.io.BufferedInputStream in;

        private Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new java.io.BufferedInputStream(socket.getInputStream());
        }

        /** Fails the read after {@code timeout} without an answer. */
        Connection timeout(Duration timeout) {
            try {
                socket.setSoTimeout((int) timeout.toMillis());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        /** Writes {@code bytes} (a request, or part of one) without waiting for an answer. */
        Connection write(byte[] bytes) {
            try {
                socket.getOutputStream().write(bytes);
                socket.getOutputStream().flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        /** Closes the sending half: the server reads the end of the stream. */
        Connection halfClose() {
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
        Response exchange(byte[] request) {
            try {
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
            } catch (IOException e) {
                // read what the server answered before it stopped reading
            }
            return read();
        }

        /** Reads one answer; fails when the server closed the connection or said nothing in time. */
        Response read() {
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
                    matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
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
        boolean closedByServer(Duration wait) {
            try {
                socket.setSoTimeout((int) wait.toMillis());
                return in.read() < 0;
            } catch (java.net.SocketTimeoutException e) {
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

    /** Opens a connection, writes {@code partial}, and drops the connection without finishing. */
    void abandon(byte[] partial) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) TIMEOUT.toMillis());
            socket.setSoLinger(true, 0); // a reset, as a client that dies mid-request
            socket.getOutputStream().write(partial);
            socket.getOutputStream().flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An answer: status, headers (names case-insensitive) and body. */
    record Response(int status, Map<String, List<String>> headers, byte[] body) {
        static Response of(HttpResponse<byte[]> r) {
            Map<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            h.putAll(r.headers().map());
            return new Response(r.statusCode(), h, r.body());
        }

        static Response parse(byte[] raw) {
            int headEnd = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
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
            byte[] rest = java.util.Arrays.copyOfRange(raw, headEnd + 4, raw.length);
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
                int lineEnd = indexOf(java.util.Arrays.copyOfRange(chunked, pos, chunked.length),
                        "\r\n".getBytes(StandardCharsets.US_ASCII));
                int size = Integer.parseInt(new String(chunked, pos, lineEnd, StandardCharsets.US_ASCII).split(";")[0]
                        .trim(), 16);
                pos += lineEnd + 2;
                if (size == 0) {
                    break;
                }
                out.write(chunked, pos, size);
                pos += size + 2;
            }
            return out.toByteArray();
        }

        private static int indexOf(byte[] haystack, byte[] needle) {
            outer:
            for (int i = 0; i + needle.length <= haystack.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (haystack[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }

        String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + text();
        }
    }
}
