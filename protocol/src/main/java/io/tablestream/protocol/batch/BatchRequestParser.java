package io.tablestream.protocol.batch;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.rules.Limits;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Takes a {@code $batch} body apart: the batch's multipart/mixed envelope, its one part (a change set,
 * itself multipart/mixed, or a lone query), and each operation's {@code application/http} request.
 *
 * <p>Works on the bytes in one pass per level with no backtracking: a delimiter is looked for only at
 * the start of a line, and a line shorter than the delimiter is rejected at its first byte, so the work
 * is linear in the body. Header sections are capped ({@link #MAX_HEADER_FIELDS} fields,
 * {@link #MAX_HEADER_SECTION_BYTES} bytes) and a change set at {@link Limits#MAX_BATCH_OPERATIONS}
 * parts, so a hostile body cannot make us build large structures either.
 *
 * <p>One class, over 400 lines: the levels (envelope, change set, operation, header section, line)
 * all walk one byte array with one set of bounds checks; split apart, each level would copy or
 * re-check what the one above established.
 */
final class BatchRequestParser {
    /** Header fields in one header section (a MIME part's or a request's). */
    static final int MAX_HEADER_FIELDS = 100;
    /** Bytes of one header section, its request line included. */
    static final int MAX_HEADER_SECTION_BYTES = 64 * 1024;
    /** The service's message for a change set of more than 100 operations (index 0, as the service writes it). */
    static final String TOO_MANY_OPERATIONS =
            "The batch request operation exceeds the maximum 100 changes per change set.";

    private static final String MULTIPART = "multipart";
    private static final int MAX_ECHOED_CHARS = 100;

    private final byte[] buf;

    private BatchRequestParser(byte[] buf) {
        this.buf = buf;
    }

    static BatchRequest parse(byte[] body, String contentType) {
        Objects.requireNonNull(body, "body");
        if (body.length > Limits.MAX_BATCH_BYTES) {
            throw TableServiceException.of(ErrorCode.REQUEST_BODY_TOO_LARGE, "The batch body is " + body.length
                    + " bytes; a batch may be at most " + Limits.MAX_BATCH_BYTES + " bytes (4 MiB).");
        }
        String boundary = multipartBoundary(contentType, "The batch request's Content-Type");
        return new BatchRequestParser(body).batch(boundary);
    }

    // ------------------------------------------------------------------ levels

    private BatchRequest batch(String boundary) {
        List<Region> parts = split(new Region(0, buf.length), boundary, 1,
                () -> invalid("A batch holds one change set or one query; this one holds more than one part."),
                "batch");
        if (parts.isEmpty()) {
            throw invalid("The batch holds no change set.");
        }
        Region part = parts.get(0);
        HeaderSection mime = headerSection(part.start(), part.end());
        requireIdentityEncoding(mime.fields());
        Optional<MediaType> type = contentType(mime.fields());
        if (type.isPresent() && type.get().is(MULTIPART, "mixed")) {
            String changeSetBoundary = multipartBoundary(mime.fields().first("Content-Type").orElseThrow(),
                    "The change set's Content-Type");
            if (changeSetBoundary.equals(boundary)) {
                throw invalid("The change set's boundary must differ from the batch's.");
            }
            return changeSet(changeSetBoundary, new Region(mime.bodyStart(), part.end()));
        }
        if (type.isPresent() && type.get().is("application", "http")) {
            BatchOperation query = request(0, new Region(mime.bodyStart(), part.end()),
                    mime.fields().first("Content-ID"), true);
            return new BatchRequest(BatchRequest.Kind.QUERY, List.of(query));
        }
        throw invalid("The batch's part must be a change set (multipart/mixed) or a query (application/http).");
    }

    private BatchRequest changeSet(String boundary, Region region) {
        List<Region> parts = split(region, boundary, Limits.MAX_BATCH_OPERATIONS,
                () -> invalid(TOO_MANY_OPERATIONS).atIndex(0), "change set");
        if (parts.isEmpty()) {
            throw invalid("The change set holds no operations.");
        }
        List<BatchOperation> operations = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            try {
                operations.add(operation(i, parts.get(i)));
            } catch (TableServiceException e) {
                throw e.failedIndex().isPresent() ? e : e.atIndex(i);
            }
        }
        return new BatchRequest(BatchRequest.Kind.CHANGE_SET, operations);
    }

    private BatchOperation operation(int index, Region part) {
        HeaderSection mime = headerSection(part.start(), part.end());
        Optional<MediaType> type = contentType(mime.fields());
        if (type.isPresent() && type.get().type().equals(MULTIPART)) {
            throw invalid("A change set cannot hold another multipart part; each operation is application/http.");
        }
        if (type.isEmpty() || !type.get().is("application", "http")) {
            throw invalid("Each operation of a change set must be an application/http part.");
        }
        requireIdentityEncoding(mime.fields());
        return request(index, new Region(mime.bodyStart(), part.end()), mime.fields().first("Content-ID"), false);
    }

    /** The HTTP request inside an {@code application/http} part. */
    private BatchOperation request(int index, Region content, Optional<String> partContentId, boolean query) {
        int pos = content.start();
        int end = content.end();
        while (pos < end && (buf[pos] == '\n' || buf[pos] == '\r' && pos + 1 < end && buf[pos + 1] == '\n')) {
            pos += buf[pos] == '\n' ? 1 : 2; // empty lines before the request line are allowed (RFC 7230 3.5)
        }
        if (pos >= end) {
            throw invalid("The operation's part holds no HTTP request.");
        }
        int lineEnd = lineEnd(pos, end, MAX_HEADER_SECTION_BYTES,
                "The operation's request line is longer than " + MAX_HEADER_SECTION_BYTES + " bytes.");
        RequestLine requestLine = requestLine(pos, lineContentEnd(pos, lineEnd));
        HeaderSection section = headerSection(nextLine(lineEnd, end), end);
        HeaderFields headers = section.fields();

        BatchOperation.Method method = BatchOperation.Method.fromToken(requestLine.method())
                .orElseThrow(() -> invalid("The method '" + clip(requestLine.method())
                        + "' is not one a batch operation may use."));
        method = applyMethodOverride(method, headers.all("X-HTTP-Method"));
        if (query && method != BatchOperation.Method.GET) {
            throw invalid("A request written directly in a batch must be a query (GET); changes belong in a change set.");
        }
        if (!query && method == BatchOperation.Method.GET) {
            throw invalid("A change set cannot hold a query (GET); a query must be alone in its batch.");
        }
        byte[] body = body(section.bodyStart(), end, headers);
        Optional<String> contentId = partContentId.or(() -> headers.first("Content-ID"));
        return new BatchOperation(index, method, requestLine.target(), headers, body, contentId);
    }

    /**
     * The method an {@code X-HTTP-Method} header tunnels through a POST, checked in the same order as for
     * requests outside a batch: only on a POST, only once, and only PUT, MERGE, PATCH or DELETE (any case).
     */
    private static BatchOperation.Method applyMethodOverride(BatchOperation.Method method, List<String> overrides) {
        if (overrides.isEmpty()) {
            return method;
        }
        if (method != BatchOperation.Method.POST) {
            throw TableServiceException.of(ErrorCode.X_METHOD_NOT_USING_POST,
                    "X-HTTP-Method may only be used on a POST; this operation is a " + method + ".");
        }
        if (overrides.size() > 1) {
            throw TableServiceException.of(ErrorCode.X_METHOD_INCORRECT_COUNT,
                    "The operation carries more than one X-HTTP-Method header.");
        }
        String value = overrides.get(0);
        return BatchOperation.Method.fromToken(value.toUpperCase(Locale.ROOT))
                .filter(m -> m == BatchOperation.Method.PUT || m == BatchOperation.Method.MERGE
                        || m == BatchOperation.Method.PATCH || m == BatchOperation.Method.DELETE)
                .orElseThrow(() -> TableServiceException.of(ErrorCode.X_METHOD_INCORRECT_VALUE,
                        "X-HTTP-Method must be PUT, MERGE, PATCH or DELETE, not '" + clip(value) + "'."));
    }

    /** The request's body: the rest of the part, or exactly Content-Length bytes of it when that is given. */
    private byte[] body(int start, int end, HeaderFields headers) {
        List<String> lengths = headers.all("Content-Length");
        if (lengths.isEmpty()) {
            return Arrays.copyOfRange(buf, start, end);
        }
        String declared = lengths.get(0);
        for (String other : lengths) {
            if (!other.equals(declared)) {
                throw invalid("The operation has conflicting Content-Length headers.");
            }
        }
        if (declared.isEmpty() || declared.length() > 10 || !declared.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw invalid("The operation's Content-Length '" + clip(declared) + "' is not a byte count.");
        }
        long length = Long.parseLong(declared);
        if (length > end - start) {
            throw invalid("The operation's body is cut short: Content-Length is " + length + " but "
                    + (end - start) + " bytes follow its headers.");
        }
        int bodyEnd = start + (int) length;
        for (int i = bodyEnd; i < end; i++) {
            if (!isWhitespace(buf[i])) {
                throw invalid("The operation has bytes after the " + length + " its Content-Length announces.");
            }
        }
        return Arrays.copyOfRange(buf, start, bodyEnd);
    }

    // ------------------------------------------------------------------ multipart

    /**
     * The parts of the multipart entity in {@code region} delimited by {@code boundary} (RFC 2046 5.1.1):
     * the preamble before the first delimiter line and the epilogue after the close delimiter are
     * ignored; a delimiter line may carry spaces or tabs before its line break (transport padding) and
     * may end the region without one; the line break before a delimiter belongs to the delimiter. A
     * plain delimiter followed by nothing but whitespace ends the entity as a close delimiter would
     * (some clients end a batch this way, and the service's documented sample does).
     */
    private List<Region> split(Region region, String boundary, int maxParts,
                               Supplier<TableServiceException> tooManyParts, String what) {
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.US_ASCII);
        Delimiter d = findDelimiter(region.start(), region.end(), delimiter);
        if (d == null) {
            throw invalid("The " + what + " has no delimiter line '--" + clip(boundary) + "'.");
        }
        List<Region> parts = new ArrayList<>();
        while (!d.close()) {
            int contentStart = d.next();
            if (isBlank(contentStart, region.end())) {
                break;
            }
            if (parts.size() == maxParts) {
                throw tooManyParts.get();
            }
            Delimiter next = findDelimiter(contentStart, region.end(), delimiter);
            if (next == null) {
                throw invalid("The " + what + " is cut short: part " + (parts.size() + 1)
                        + " has no closing delimiter line '--" + clip(boundary) + "--'.");
            }
            parts.add(new Region(contentStart, partContentEnd(contentStart, next.start())));
            d = next;
        }
        return parts;
    }

    /** The first delimiter line at or after {@code from}, which is the start of a line. */
    private Delimiter findDelimiter(int from, int end, byte[] delimiter) {
        int pos = from;
        while (pos < end) {
            Delimiter d = delimiterAt(pos, end, delimiter);
            if (d != null) {
                return d;
            }
            int lf = indexOfLineFeed(pos, end);
            if (lf < 0) {
                return null;
            }
            pos = lf + 1;
        }
        return null;
    }

    private Delimiter delimiterAt(int pos, int end, byte[] delimiter) {
        if (end - pos < delimiter.length) {
            return null;
        }
        for (int k = 0; k < delimiter.length; k++) {
            if (buf[pos + k] != delimiter[k]) {
                return null;
            }
        }
        int q = pos + delimiter.length;
        boolean close = q + 1 < end && buf[q] == '-' && buf[q + 1] == '-';
        if (close) {
            q += 2;
        }
        while (q < end && (buf[q] == ' ' || buf[q] == '\t')) {
            q++;
        }
        if (q == end || buf[q] == '\r' && q + 1 == end) {
            return new Delimiter(pos, end, close);
        }
        if (buf[q] == '\n') {
            return new Delimiter(pos, q + 1, close);
        }
        if (buf[q] == '\r' && buf[q + 1] == '\n') {
            return new Delimiter(pos, q + 2, close);
        }
        // Anything else on a close delimiter's line is epilogue; on a plain one it means this is no delimiter.
        return close ? new Delimiter(pos, q, true) : null;
    }

    /** Where a part's content ends given the start of the delimiter line after it: before that line's break. */
    private int partContentEnd(int contentStart, int delimiterStart) {
        if (delimiterStart == contentStart) {
            return contentStart;
        }
        int e = delimiterStart - 1; // the line feed
        if (e > contentStart && buf[e - 1] == '\r') {
            e--;
        }
        return e;
    }

    // ------------------------------------------------------------------ header sections and lines

    /**
     * The header fields from {@code start} up to an empty line (or the end of the region, which then also
     * ends the section: the line break before a delimiter may have eaten the empty line). Lines end in CRLF
     * or a bare LF. A line starting with a space or tab continues the previous field (obsolete line
     * folding, RFC 7230 3.2.4): it is unfolded with one space.
     */
    private HeaderSection headerSection(int start, int end) {
        List<HeaderField> fields = new ArrayList<>();
        int pos = start;
        while (pos < end) {
            int budget = MAX_HEADER_SECTION_BYTES - (pos - start);
            int lineEnd = lineEnd(pos, end, budget,
                    "A header section is larger than " + MAX_HEADER_SECTION_BYTES + " bytes.");
            int contentEnd = lineContentEnd(pos, lineEnd);
            int next = nextLine(lineEnd, end);
            if (contentEnd == pos) {
                return new HeaderSection(HeaderFields.of(fields), next);
            }
            if (buf[pos] == ' ' || buf[pos] == '\t') {
                if (fields.isEmpty()) {
                    throw invalid("A header section starts with a continuation line.");
                }
                HeaderField previous = fields.remove(fields.size() - 1);
                String continuation = fieldValue(pos, contentEnd, previous.name());
                String joined = previous.value().isEmpty() ? continuation
                        : continuation.isEmpty() ? previous.value() : previous.value() + " " + continuation;
                fields.add(HeaderField.of(previous.name(), joined));
            } else {
                if (fields.size() == MAX_HEADER_FIELDS) {
                    throw invalid("A header section has more than " + MAX_HEADER_FIELDS + " fields.");
                }
                fields.add(field(pos, contentEnd));
            }
            pos = next;
        }
        return new HeaderSection(HeaderFields.of(fields), end);
    }

    private HeaderField field(int start, int end) {
        int colon = -1;
        for (int i = start; i < end; i++) {
            if (buf[i] == ':') {
                colon = i;
                break;
            }
        }
        if (colon < 0) {
            throw invalid("The header line '" + clip(latin1(start, end)) + "' has no colon.");
        }
        String name = latin1(start, colon);
        if (!HeaderField.isToken(name)) {
            throw invalid("'" + clip(name) + "' is not a header name.");
        }
        return HeaderField.of(name, fieldValue(colon + 1, end, name));
    }

    /** A field value without surrounding spaces and tabs; control characters are refused. */
    private String fieldValue(int start, int end, String name) {
        int s = start;
        int e = end;
        while (s < e && (buf[s] == ' ' || buf[s] == '\t')) {
            s++;
        }
        while (e > s && (buf[e - 1] == ' ' || buf[e - 1] == '\t')) {
            e--;
        }
        String value = latin1(s, e);
        if (!HeaderField.isValidValue(value)) {
            throw invalid("The value of header " + clip(name) + " holds a control character.");
        }
        return value;
    }

    private RequestLine requestLine(int start, int end) {
        int e = end;
        while (e > start && (buf[e - 1] == ' ' || buf[e - 1] == '\t')) {
            e--;
        }
        int firstSpace = -1;
        int lastSpace = -1;
        for (int i = start; i < e; i++) {
            if (buf[i] == ' ') {
                if (firstSpace < 0) {
                    firstSpace = i;
                }
                lastSpace = i;
            }
        }
        if (firstSpace < 0 || firstSpace == lastSpace) {
            throw invalid("The request line '" + clip(latin1(start, end))
                    + "' is not 'METHOD request-target HTTP/1.1'.");
        }
        String method = latin1(start, firstSpace);
        String version = latin1(lastSpace + 1, e);
        if (!HeaderField.isToken(method)) {
            throw invalid("The request line's method '" + clip(method) + "' is not a method name.");
        }
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
            throw invalid("The request line ends in '" + clip(version) + "', not HTTP/1.1.");
        }
        int ts = firstSpace + 1;
        int te = lastSpace;
        while (ts < te && buf[ts] == ' ') {
            ts++;
        }
        while (te > ts && buf[te - 1] == ' ') {
            te--;
        }
        if (ts == te) {
            throw invalid("The request line has no request target.");
        }
        for (int i = ts; i < te; i++) {
            if ((buf[i] & 0xFF) < 0x20 || buf[i] == 0x7F) {
                throw invalid("The request target holds a control character.");
            }
        }
        return new RequestLine(method, utf8(ts, te));
    }

    /**
     * The index of the line feed ending the line at {@code pos}, or {@code end} when the region ends first.
     * Looks no further than {@code budget} bytes: a longer line is refused with {@code tooLong}.
     */
    private int lineEnd(int pos, int end, int budget, String tooLong) {
        int limit = budget < end - pos ? pos + budget : end;
        int lf = indexOfLineFeed(pos, limit);
        if (lf >= 0) {
            return lf;
        }
        if (limit < end) {
            throw invalid(tooLong);
        }
        return end;
    }

    /** The line's content end (before its CR, if any) given where its line feed is (or the region's end). */
    private int lineContentEnd(int lineStart, int lineFeedOrEnd) {
        int e = lineFeedOrEnd;
        if (e > lineStart && buf[e - 1] == '\r') {
            e--;
        }
        return e;
    }

    private static int nextLine(int lineFeedOrEnd, int end) {
        return lineFeedOrEnd < end ? lineFeedOrEnd + 1 : end;
    }

    private int indexOfLineFeed(int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private boolean isBlank(int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isWhitespace(buf[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }

    private String latin1(int start, int end) {
        return new String(buf, start, end - start, StandardCharsets.ISO_8859_1);
    }

    private String utf8(int start, int end) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(buf, start, end - start))
                    .toString();
        } catch (CharacterCodingException e) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The request target is not valid UTF-8.", e);
        }
    }

    // ------------------------------------------------------------------ content types

    private static Optional<MediaType> contentType(HeaderFields fields) {
        return fields.first("Content-Type").flatMap(MediaType::parse);
    }

    /** Only identity encodings are meaningful for HTTP messages carried in a batch. */
    private static void requireIdentityEncoding(HeaderFields fields) {
        for (String encoding : fields.all("Content-Transfer-Encoding")) {
            String e = encoding.toLowerCase(Locale.ROOT);
            if (!e.equals("binary") && !e.equals("8bit") && !e.equals("7bit")) {
                throw invalid("Content-Transfer-Encoding '" + clip(encoding) + "' is not supported; use binary.");
            }
        }
    }

    /** The boundary of a {@code multipart/mixed} Content-Type value, quoted or not. */
    private static String multipartBoundary(String contentType, String what) {
        MediaType type = MediaType.parse(contentType)
                .filter(t -> t.is(MULTIPART, "mixed"))
                .orElseThrow(() -> invalid(what + " must be multipart/mixed with a boundary, not '"
                        + clip(String.valueOf(contentType)) + "'."));
        String boundary = type.parameter("boundary")
                .orElseThrow(() -> invalid(what + " has no boundary parameter."));
        if (!isValidBoundary(boundary)) {
            throw invalid(what + " has an invalid boundary '" + clip(boundary) + "'.");
        }
        return boundary;
    }

    /** RFC 2046 5.1.1: 1 to 70 characters from a restricted set, not ending in a space. */
    static boolean isValidBoundary(String boundary) {
        if (boundary.isEmpty() || boundary.length() > 70 || boundary.endsWith(" ")) {
            return false;
        }
        for (int i = 0; i < boundary.length(); i++) {
            char c = boundary.charAt(i);
            boolean alnum = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
            if (!alnum && "'()+_,-./:=? ".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    private static TableServiceException invalid(String message) {
        return TableServiceException.of(ErrorCode.INVALID_INPUT, message);
    }

    /** Client text quoted in a message, cut to a readable length. */
    private static String clip(String s) {
        return s.length() <= MAX_ECHOED_CHARS ? s : s.substring(0, MAX_ECHOED_CHARS) + "...";
    }

    private record Region(int start, int end) {
    }

    /** A delimiter line: where it starts, where the line after it starts, and whether it closes the entity. */
    private record Delimiter(int start, int next, boolean close) {
    }

    private record HeaderSection(HeaderFields fields, int bodyStart) {
    }

    private record RequestLine(String method, String target) {
    }
}
