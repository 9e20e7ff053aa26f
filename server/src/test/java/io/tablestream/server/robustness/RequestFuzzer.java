package io.tablestream.server.robustness;

import io.tablestream.server.RawTableClient;
import io.tablestream.client.SharedKeySigning;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Generates hostile requests to the Table service from one {@link Random}, so that a seed names a
 * whole sequence: JSON entity bodies, {@code $filter} texts and other query options, keys and
 * percent-encodings in entity paths, multipart {@code $batch} bodies, header values, and broken
 * HTTP framing. Each request is signed (SharedKey or SharedKeyLite with the account key) after it is
 * built, so that it gets past authentication to the handlers.
 *
 * <p>The seeded table's rows must survive: a write aimed at it is one that cannot succeed — an
 * insert (which may add a row, never change one) or an update or delete conditional on an ETag no
 * row has, which no mutation removes. Tables are created and deleted only under this fuzzer's own
 * prefix, and the account's service properties are only read, so other tests sharing the server
 * are not disturbed.
 */
final class RequestFuzzer {
    /** What a case exercises. */
    enum Kind { JSON_BODY, FILTER, KEYS, BATCH, HEADERS, FRAMING }

    /**
     * One request: its bytes on the wire, and whether they keep HTTP framing intact (then it is
     * sent on a kept-alive connection) or break it (then it goes on a connection of its own, which
     * the client half-closes after writing).
     */
    record Case(int index, Kind kind, String summary, byte[] wire, boolean framed) {
        /** The request as text, cut short, for a report. */
        String printable() {
            String text = new String(wire, 0, Math.min(wire.length, 600), StandardCharsets.ISO_8859_1);
            StringBuilder sb = new StringBuilder();
            for (char c : text.toCharArray()) {
                if (c == '\r') {
                    sb.append("\\r");
                } else if (c == '\n') {
                    sb.append("\\n\n        ");
                } else if (c < 0x20 || c >= 0x7f) {
                    sb.append(String.format("\\x%02x", (int) c));
                } else {
                    sb.append(c);
                }
            }
            return "#" + index + " " + kind + " " + summary + " (" + wire.length + " bytes)\n        " + sb
                    + (wire.length > 600 ? "..." : "");
        }
    }

    /** An ETag no row has: a write conditional on it never applies. */
    static final String STALE_ETAG = "W/\"datetime'2001-02-03T04%3A05%3A06.0000007Z'\"";

    private static final String[] TRICKY = {"'", "''", "\"", "\\", "/", "#", "?", "%", "&", "+", ";", "=", ",", "(",
            ")", " ", "\t", "\n", "\r", "\u0000", "\u0001", "\u001f", "\u007f", "\u0080", "\u009f", "é", "€", "😀",
            "\ud800", "\udc00", "\uffff", "\ufeff", "$", "@", "*", ":", "[", "]", "{", "}", "<", ">", "|", "^", "`", "~"};
    private static final String[] BAD_ESCAPES = {"%", "%G1", "%1", "%zz", "%C0%AF", "%ED%A0%80", "%FF", "%00",
            "%E2%82", "%F4%90%80%80", "%%", "%2", "%c3%28"};
    private static final String[] EDM_TYPES = {"Edm.String", "Edm.Int32", "Edm.Int64", "Edm.Double", "Edm.Boolean",
            "Edm.DateTime", "Edm.Guid", "Edm.Binary", "Edm.Decimal", "Edm.Single", "edm.int32", "", "Edm.Int64 "};
    private static final String[] PROPERTY_NAMES = {"Name", "Count", "Big", "Ratio", "Flag", "When", "Id", "Blob",
            "TTLInSeconds", "Timestamp", "PartitionKey", "RowKey", "odata.etag", "odata.type", "_x", "x y", "1abc",
            "a.b", "a-b", "ü", "x".repeat(256), "Name@odata.type", ""};
    private static final String[] FILTER_PROPERTIES = {"PartitionKey", "RowKey", "Timestamp", "Name", "Count", "Big",
            "Ratio", "Flag", "When", "Id", "Blob", "Missing", "TableName", "partitionkey", "odata.etag"};
    private static final String[] FILTER_OPERATORS = {"eq", "ne", "gt", "ge", "lt", "le", "EQ", "like", "has", "=="};
    private static final String[] VERSIONS = {"2019-02-02", "2020-12-06", "2013-08-15", "2099-01-01", "2009-09-19",
            "garbage", "", "2020-13-45", "2019-02-02, 2020-12-06"};
    private static final String[] ACCEPTS = {"application/json;odata=nometadata", "application/json;odata=minimalmetadata",
            "application/json;odata=fullmetadata", "application/json", "application/json;odata=verbose",
            "application/atom+xml", "application/xml", "*/*", "text/plain", "", "application/json;odata=",
            "application/json;odata=nometadata;streaming=true;charset=utf-8", "application/json;q=0.5, */*;q=0.1"};
    private static final String[] CONTENT_TYPES = {"application/json", "application/json;odata=nometadata",
            "application/json; charset=utf-8", "application/json;charset=latin1", "application/atom+xml",
            "application/xml", "text/plain", "multipart/mixed", "multipart/mixed; boundary=", "", "*/*",
            "application/json;odata=minimalmetadata;streaming=true", "APPLICATION/JSON"};
    private static final String[] PREFERS = {"return-content", "return-no-content", "respond-async",
            "respond-async, return-content", "return=representation", "garbage", "", "respond-async;wait=5"};

    private final Random rnd;
    private final RawTableClient client;
    private final String seedTable;
    private final List<String[]> seedKeys;
    private final String playground;
    private final String tablePrefix;
    private final int port;
    private int index;

    /**
     * @param seedTable the table whose rows must survive
     * @param seedKeys its rows' (PartitionKey, RowKey)
     * @param playground a table any write may change
     * @param tablePrefix the prefix of the table names this fuzzer may create and delete
     */
    RequestFuzzer(Random rnd, RawTableClient client, String seedTable, List<String[]> seedKeys, String playground,
                  String tablePrefix) {
        this.rnd = rnd;
        this.client = client;
        this.seedTable = seedTable;
        this.seedKeys = seedKeys;
        this.playground = playground;
        this.tablePrefix = tablePrefix;
        this.port = client.port();
    }

    Case next() {
        int i = index++;
        int pick = rnd.nextInt(100);
        if (pick < 20) {
            return jsonBody(i);
        } else if (pick < 38) {
            return filter(i);
        } else if (pick < 55) {
            return keys(i);
        } else if (pick < 70) {
            return batch(i);
        } else if (pick < 85) {
            return headers(i);
        }
        return framing(i);
    }

    // ------------------------------------------------------------------ JSON bodies

    private Case jsonBody(int i) {
        byte[] body = entityJson();
        boolean mutated = chance(40);
        if (mutated) {
            body = mutateBytes(body);
        }
        RawTableClient.Request r;
        String summary;
        int target = rnd.nextInt(10);
        if (target < 5) {
            r = client.request("POST", playground);
            summary = "insert into playground";
        } else if (target < 8) {
            String method = oneOf("PUT", "PATCH", "MERGE", "POST");
            r = client.request(method, entityPath(playground, randomKey(), randomKey()));
            if (method.equals("POST")) {
                r.header("X-HTTP-Method", oneOf("MERGE", "PUT", "DELETE", "merge"));
            }
            if (chance(50)) {
                r.header("If-Match", oneOf("*", STALE_ETAG));
            }
            summary = method + " playground entity";
        } else if (target < 9) {
            r = client.request("POST", seedTable);
            summary = "insert into the seeded table";
        } else {
            String[] key = seedKey();
            String method = oneOf("PUT", "PATCH", "MERGE");
            r = client.request(method, entityPath(seedTable, key[0], key[1])).header("If-Match", STALE_ETAG);
            summary = method + " seeded entity on a stale ETag";
        }
        r.body(body);
        if (chance(15)) {
            r.contentType(oneOf(CONTENT_TYPES));
        }
        if (chance(20)) {
            r.header("Prefer", oneOf(PREFERS));
        }
        return framed(i, Kind.JSON_BODY, summary + (mutated ? ", bytes mutated" : ""), signed(r));
    }

    private byte[] entityJson() {
        StringBuilder json = new StringBuilder("{");
        List<String> members = new ArrayList<>();
        if (chance(90)) {
            members.add(jsonString("PartitionKey") + ":" + (chance(90) ? jsonString(randomKey()) : randomJsonValue(0)));
        }
        if (chance(90)) {
            members.add(jsonString("RowKey") + ":" + (chance(90) ? jsonString(randomKey()) : randomJsonValue(0)));
        }
        int properties = chance(3) ? 250 + rnd.nextInt(10) : rnd.nextInt(8);
        for (int p = 0; p < properties; p++) {
            String name = chance(70) ? "P" + rnd.nextInt(50) : oneOf(PROPERTY_NAMES);
            if (chance(35)) {
                members.add(jsonString(name + "@odata.type") + ":" + (chance(90) ? jsonString(oneOf(EDM_TYPES))
                        : randomJsonValue(1)));
            }
            members.add(jsonString(name) + ":" + typedValue());
        }
        if (chance(5)) {
            members.add(jsonString("odata.metadata") + ":" + jsonString("http://x/$metadata#t/@Element"));
        }
        java.util.Collections.shuffle(members, rnd);
        json.append(String.join(",", members)).append('}');
        if (chance(3)) {
            json.insert(json.length() - 1, ",\"Huge\":\"" + "h".repeat(33_000 + rnd.nextInt(2)) + "\"");
        }
        if (chance(1)) {
            json.insert(json.length() - 1, ",\"Wide\":\"" + "w".repeat(1_100_000) + "\"");
        }
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    private String typedValue() {
        return switch (rnd.nextInt(12)) {
            case 0 -> jsonString(randomString(20));
            case 1 -> Integer.toString(rnd.nextInt());
            case 2 -> jsonString(Long.toString(rnd.nextLong()));
            case 3 -> Double.toString(rnd.nextGaussian() * 1e6);
            case 4 -> rnd.nextBoolean() ? "true" : "false";
            case 5 -> jsonString(oneOf("2024-05-06T07:08:09.1234567Z", "2024-05-06T07:08:09Z", "0001-01-01T00:00:00Z",
                    "9999-12-31T23:59:59.9999999Z", "2024-02-30T00:00:00Z", "yesterday", "2024-05-06T07:08:09.123456789Z"));
            case 6 -> jsonString(oneOf("00000000-0000-0000-0000-000000000000", "not-a-guid",
                    "1c9a1e4b-1b5e-4a0c-9f5e-5e8b0b0d3c2a", "{1c9a1e4b-1b5e-4a0c-9f5e-5e8b0b0d3c2a}"));
            case 7 -> jsonString(oneOf("AQID", "****", "", "AQ==", "AQ"));
            case 8 -> "null";
            case 9 -> oneOf("1e400", "-0", "NaN", "Infinity", "99999999999999999999", "1.7976931348623157E308",
                    "0.0000000000000000000001", "-2147483649", "2147483648");
            case 10 -> randomJsonValue(0);
            default -> jsonString(randomString(2 + rnd.nextInt(200)));
        };
    }

    private String randomJsonValue(int depth) {
        return switch (depth > 3 ? rnd.nextInt(4) : rnd.nextInt(7)) {
            case 0 -> jsonString(randomString(8));
            case 1 -> Integer.toString(rnd.nextInt(1000));
            case 2 -> "true";
            case 3 -> "null";
            case 4 -> "[" + randomJsonValue(depth + 1) + "," + randomJsonValue(depth + 1) + "]";
            case 5 -> "{" + jsonString("k") + ":" + randomJsonValue(depth + 1) + "}";
            default -> "[".repeat(depth * 100 + 1) + "]".repeat(depth * 100 + 1);
        };
    }

    /** A JSON string literal of {@code s}; now and then with an escape a JSON parser must refuse or decode. */
    private String jsonString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || Character.isSurrogate(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (chance(2)) {
            sb.append(oneOf("\\x41", "\\u12", "\\ud800", "\\udc00\\ud800", "\\", "\\u0000"));
        }
        return sb.append('"').toString();
    }

    // ------------------------------------------------------------------ $filter and other query options

    private Case filter(int i) {
        String table = oneOf(seedTable, seedTable, playground, "Tables", tablePrefix + "Missing");
        boolean tables = table.equals("Tables");
        List<String> params = new ArrayList<>();
        String filter = null;
        if (chance(75)) {
            filter = expression(0, tables);
            if (chance(30)) {
                filter = mutateText(filter);
            }
            params.add("$filter=" + queryValue(filter));
        }
        if (chance(30)) {
            List<String> names = new ArrayList<>();
            for (int n = rnd.nextInt(5); n >= 0; n--) {
                names.add(chance(80) ? oneOf(FILTER_PROPERTIES) : randomString(6));
            }
            params.add("$select=" + queryValue(String.join(oneOf(",", ", ", ",,", ";"), names)));
        }
        if (chance(30)) {
            params.add("$top=" + queryValue(oneOf("1", "0", "-1", "1000", "1001", "2147483648", "abc", "", "5.5", "01")));
        }
        if (chance(15)) {
            if (tables) {
                params.add("NextTableName=" + queryValue(randomString(12)));
            } else {
                params.add("NextPartitionKey=" + queryValue(chance(50) ? continuationToken() : randomString(10)));
                if (chance(80)) {
                    params.add("NextRowKey=" + queryValue(chance(50) ? continuationToken() : randomString(10)));
                }
            }
        }
        if (chance(10)) {
            params.add("$format=" + queryValue(oneOf(ACCEPTS)));
        }
        if (chance(5)) {
            params.add(oneOf("$orderby=RowKey%20desc", "$count=true", "$skip=3", "$expand=x", "$filter=", "$top=1&$top=2",
                    "%24filter=PartitionKey%20eq%20'a'", "timeout=-1", "$inlinecount=allpages"));
        }
        String target = (tables ? "Tables" : table + oneOf("()", "", "()")) + (params.isEmpty() ? ""
                : "?" + String.join("&", params));
        RawTableClient.Request r = client.request("GET", target);
        if (chance(15)) {
            r.set("Accept", oneOf(ACCEPTS));
        }
        return framed(i, Kind.FILTER, "query " + (tables ? "Tables" : table.equals(seedTable) ? "seeded table" : table)
                + (filter == null ? "" : " $filter=" + abbreviate(filter)), signed(r));
    }

    private String expression(int depth, boolean tables) {
        int pick = rnd.nextInt(depth > 3 ? 6 : 10);
        if (pick < 6) {
            String property = tables ? oneOf("TableName", "TableName", "Name") : oneOf(FILTER_PROPERTIES);
            String comparison = property + " " + oneOf(FILTER_OPERATORS) + " " + literal();
            return chance(10) ? literal() + " " + oneOf(FILTER_OPERATORS) + " " + property : comparison;
        }
        return switch (pick) {
            case 6 -> expression(depth + 1, tables) + " and " + expression(depth + 1, tables);
            case 7 -> expression(depth + 1, tables) + " or " + expression(depth + 1, tables);
            case 8 -> "not " + oneOf("", "(") + expression(depth + 1, tables) + oneOf("", ")");
            default -> "(" + expression(depth + 1, tables) + ")";
        };
    }

    private String literal() {
        return switch (rnd.nextInt(14)) {
            case 0 -> "'" + randomString(8).replace("'", "''") + "'";
            case 1 -> "'" + randomString(5) + "'"; // a quote may be left undoubled
            case 2 -> Integer.toString(rnd.nextInt());
            case 3 -> rnd.nextLong() + oneOf("L", "l", "");
            case 4 -> oneOf("1.5", "-0.0", "1e308", "1e309", "1.5d", ".5", "5.", "1E-400");
            case 5 -> oneOf("true", "false", "True", "null");
            case 6 -> "datetime'" + oneOf("2024-05-06T07:08:09Z", "2024-05-06T07:08:09.1234567Z", "0001-01-01T00:00:00Z",
                    "garbage", "2024-13-01T00:00:00Z", "") + "'";
            case 7 -> "guid'" + oneOf("00000000-0000-0000-0000-000000000000", "bad", "") + "'";
            case 8 -> oneOf("X'", "binary'") + oneOf("0102", "010", "zz", "") + "'";
            case 9 -> "'" + "s".repeat(rnd.nextInt(70_000)) + "'";
            case 10 -> oneOf("PartitionKey", "RowKey", "Count", "(", ")", "''", "'", "eq", "and");
            case 11 -> oneOf("2147483648", "9223372036854775808L", "-2147483649", "0x10", "1_000");
            case 12 -> "'" + seedKey()[rnd.nextInt(2)].replace("'", "''") + "'";
            default -> "'" + randomString(3) + "'";
        };
    }

    private String continuationToken() {
        // the service's own form: 1!<length>!<base64 of the key>
        String key = chance(50) ? seedKey()[0] : randomString(6);
        String b64 = java.util.Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
        return oneOf("1!" + b64.length() + "!" + b64, "1!" + b64.length() + "!" + b64 + "x", "1!9999!" + b64,
                "2!4!abcd", "1!!", "!", b64);
    }

    /** A query parameter value: encoded as the SDKs do, or now and then with raw characters and bad escapes. */
    private String queryValue(String value) {
        if (chance(85)) {
            return RawTableClient.encode(value);
        }
        return pathSafe(value, true);
    }

    // ------------------------------------------------------------------ keys and percent-encodings

    private Case keys(int i) {
        int pick = rnd.nextInt(20);
        RawTableClient.Request r;
        String summary;
        if (pick < 10) {
            String[] key = chance(40) ? seedKey() : new String[] {randomKey(), randomKey()};
            String table = chance(70) ? seedTable : chance(50) ? playground : randomTableName();
            r = client.request(chance(90) ? "GET" : "HEAD", entityPathVariant(table, key[0], key[1]));
            summary = "read an entity path";
        } else if (pick < 13) {
            String method = oneOf("PUT", "PATCH", "MERGE", "DELETE");
            r = client.request(method, entityPathVariant(playground, randomKey(), randomKey()));
            r.header("If-Match", oneOf("*", STALE_ETAG));
            if (!method.equals("DELETE") || chance(30)) {
                r.body(chance(80) ? "{\"N\":1}" : new String(entityJson(), StandardCharsets.UTF_8));
            }
            summary = method + " a playground entity path";
        } else if (pick < 15) {
            String[] key = chance(70) ? seedKey() : new String[] {randomKey(), randomKey()};
            String method = oneOf("PUT", "PATCH", "MERGE", "DELETE");
            r = client.request(method, entityPathVariant(seedTable, key[0], key[1])).header("If-Match", STALE_ETAG);
            if (!method.equals("DELETE")) {
                r.body("{\"N\":2}");
            }
            summary = method + " a seeded entity path on a stale ETag";
        } else if (pick < 17) {
            r = client.request("GET", "Tables(" + quoted(chance(50) ? randomTableName() : randomString(8)) + ")");
            summary = "read a table";
        } else if (pick < 18) {
            String name = chance(60) ? tablePrefix + Integer.toString(rnd.nextInt(1_000_000), 36) : randomString(10);
            r = client.request("POST", "Tables").body("{\"TableName\":" + jsonString(name) + "}");
            summary = "create a table";
        } else if (pick < 19) {
            String name = tablePrefix + Integer.toString(rnd.nextInt(1_000_000), 36) + oneOf("", "%00", "'", "%27%27");
            r = client.request("DELETE", "Tables(" + quoted(name) + ")");
            summary = "delete a table of this fuzzer";
        } else {
            r = client.request("GET", oneOf(seedTable, playground) + "?comp=acl");
            summary = "read a table's ACL";
        }
        return framed(i, Kind.KEYS, summary, signed(r));
    }

    private String entityPathVariant(String table, String pk, String rk) {
        String p = "PartitionKey=" + quoted(pk);
        String k = "RowKey=" + quoted(rk);
        String inside = switch (rnd.nextInt(12)) {
            case 0 -> k + "," + p;
            case 1 -> p + ", " + k;
            case 2 -> p;
            case 3 -> p + "," + k + ",Extra=" + quoted("x");
            case 4 -> p.replace("PartitionKey", "partitionkey") + "," + k;
            case 5 -> p + ";" + k;
            case 6 -> "PartitionKey=" + pathSafe(pk, true) + ",RowKey=" + pathSafe(rk, true);
            case 7 -> p + "," + k + ")" + oneOf("/x", "(", "x", "%2F..");
            default -> p + "," + k;
        };
        return pathSafe(table, chance(5)) + "(" + inside + ")";
    }

    /** {@code 'value'} with its quotes doubled and percent-encoded as a path segment. */
    private String quoted(String value) {
        String q = chance(90) ? value.replace("'", "''") : value;
        return (chance(80) ? "%27" : "'") + pathSafe(q, chance(15)) + (chance(97) ? "%27" : "");
    }

    /**
     * {@code value} percent-encoded for a path (each character raw when it is safe, else its UTF-8
     * bytes escaped, in either case of hex); with {@code hostile}, also bad escapes and raw characters
     * that a URI may not hold but that keep the request line one line.
     */
    private String pathSafe(String value, boolean hostile) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < value.length(); k++) {
            char c = value.charAt(k);
            boolean unreserved = c < 0x80 && (Character.isLetterOrDigit(c) || "-._~!$&()*+,;=:@'".indexOf(c) >= 0);
            if (unreserved && !(chance(10) && c != '%')) {
                sb.append(c);
            } else if (Character.isHighSurrogate(c) && k + 1 < value.length() && Character.isLowSurrogate(value.charAt(k + 1))) {
                escape(sb, value.substring(k, k + 2).getBytes(StandardCharsets.UTF_8));
                k++;
            } else if (Character.isSurrogate(c)) {
                sb.append(c > 0xdbff ? "%ED%B0%80" : "%ED%A0%80"); // a lone surrogate, as CESU would write it
            } else {
                escape(sb, String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
            if (hostile && chance(8)) {
                sb.append(chance(70) ? oneOf(BAD_ESCAPES) : oneOf("\"", "<", ">", "{", "}", "|", "\\", "^", "`", "[", "]",
                        "\u00e9", "\u0001", "\u007f"));
            }
        }
        return sb.toString();
    }

    private void escape(StringBuilder sb, byte[] bytes) {
        String format = chance(50) ? "%%%02X" : "%%%02x";
        for (byte b : bytes) {
            sb.append(String.format(format, b & 0xff));
        }
    }

    // ------------------------------------------------------------------ multipart $batch

    private Case batch(int i) {
        boolean onSeed = chance(20);
        String table = onSeed ? seedTable : playground;
        String batchBoundary = "batch_" + Integer.toHexString(rnd.nextInt());
        String changeSet = "changeset_" + Integer.toHexString(rnd.nextInt());
        String pk = onSeed || chance(60) ? (onSeed ? seedKey()[0] : "fz") : randomKey();
        int ops = chance(3) ? 101 : 1 + rnd.nextInt(5);
        StringBuilder parts = new StringBuilder();
        String base = chance(60) ? "http://127.0.0.1:" + port + "/devstoreaccount1/" : "";
        for (int op = 0; op < ops; op++) {
            String method = onSeed && chance(40) ? "POST" : oneOf("POST", "PUT", "MERGE", "PATCH", "DELETE",
                    onSeed ? "PUT" : "GET");
            String otherPk = !onSeed && chance(5) ? randomKey() : pk;
            String rk = onSeed && chance(50) ? seedKey()[1] : chance(10) ? "dup" : randomKey();
            String url = method.equals("POST") ? base + table
                    : base + entityPath(chance(5) && !onSeed ? randomTableName() : table, otherPk, rk);
            parts.append("--").append(changeSet).append("\r\n")
                    .append("Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n");
            if (chance(30)) {
                parts.append("Content-ID: ").append(oneOf("1", "x", "", Integer.toString(op))).append("\r\n");
            }
            parts.append("\r\n").append(method).append(' ').append(url).append(" HTTP/1.1\r\n");
            parts.append("Accept: application/json;odata=minimalmetadata\r\nDataServiceVersion: 3.0\r\n");
            if (!method.equals("POST") && (onSeed || chance(60))) {
                parts.append("If-Match: ").append(onSeed ? STALE_ETAG : oneOf("*", STALE_ETAG, "garbage")).append("\r\n");
            }
            if (chance(20)) {
                parts.append("Prefer: ").append(oneOf(PREFERS)).append("\r\n");
            }
            String body = method.equals("DELETE") || method.equals("GET") ? ""
                    : method.equals("POST") ? "{\"PartitionKey\":" + jsonString(otherPk) + ",\"RowKey\":" + jsonString(rk)
                            + ",\"N\":" + op + "}"
                    : new String(entityJson(), StandardCharsets.UTF_8);
            if (!body.isEmpty()) {
                parts.append("Content-Type: application/json\r\n");
                parts.append("Content-Length: ").append(body.getBytes(StandardCharsets.UTF_8).length
                        + (chance(5) ? rnd.nextInt(9) - 4 : 0)).append("\r\n");
            }
            parts.append("\r\n").append(body).append("\r\n");
        }
        parts.append("--").append(changeSet).append("--\r\n");
        String whole = "--" + batchBoundary + "\r\nContent-Type: multipart/mixed; boundary=" + changeSet + "\r\n\r\n"
                + parts + "\r\n--" + batchBoundary + "--\r\n";
        byte[] body = whole.getBytes(StandardCharsets.UTF_8);
        boolean mutated = !onSeed && chance(50);
        if (mutated) {
            body = mutateBatch(body, batchBoundary, changeSet);
        }
        RawTableClient.Request r = client.request("POST", "$batch").body(body)
                .contentType(chance(92) ? "multipart/mixed; boundary=" + batchBoundary
                        : oneOf("multipart/mixed", "multipart/mixed; boundary=other", "application/json",
                                "multipart/mixed; boundary=\"" + batchBoundary + "\"", "multipart/form-data; boundary="
                                        + batchBoundary));
        return framed(i, Kind.BATCH, ops + " operations on " + (onSeed ? "the seeded table, stale ETags" : "playground")
                + (mutated ? ", mutated" : ""), signed(r));
    }

    private byte[] mutateBatch(byte[] body, String batchBoundary, String changeSet) {
        String text = new String(body, StandardCharsets.ISO_8859_1);
        return switch (rnd.nextInt(8)) {
            case 0 -> text.replace("\r\n", "\n").getBytes(StandardCharsets.ISO_8859_1);
            case 1 -> text.replace("--" + changeSet + "--", "").getBytes(StandardCharsets.ISO_8859_1);
            case 2 -> text.replace("--" + batchBoundary + "--", "").getBytes(StandardCharsets.ISO_8859_1);
            case 3 -> text.replaceFirst("\r\n\r\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1);
            case 4 -> text.replace("Content-Type: application/http", "Content-Type: " + oneOf(CONTENT_TYPES))
                    .getBytes(StandardCharsets.ISO_8859_1);
            case 5 -> text.replaceFirst(" HTTP/1.1", oneOf("", " HTTP/1.0", " HTTP/2", "  HTTP/1.1"))
                    .getBytes(StandardCharsets.ISO_8859_1);
            case 6 -> (text.substring(0, text.length() / 2) + "--" + changeSet + "\r\nContent-Type: multipart/mixed; "
                    + "boundary=" + changeSet + "\r\n\r\n" + text.substring(text.length() / 2))
                    .getBytes(StandardCharsets.ISO_8859_1);
            default -> mutateBytes(body);
        };
    }

    // ------------------------------------------------------------------ headers

    private Case headers(int i) {
        RawTableClient.Request r;
        String base;
        switch (rnd.nextInt(9)) {
            case 0 -> {
                String[] key = seedKey();
                r = client.request("GET", entityPath(seedTable, key[0], key[1]));
                base = "read a seeded entity";
            }
            case 1 -> {
                r = client.request("GET", seedTable + "()?$filter=" + RawTableClient.encode("PartitionKey eq 'p1'"));
                base = "query the seeded table";
            }
            case 2 -> {
                r = client.request("POST", playground).body("{\"PartitionKey\":\"h\",\"RowKey\":" + jsonString(randomKey())
                        + ",\"N\":1}");
                base = "insert into playground";
            }
            case 3 -> {
                r = client.request(oneOf("PATCH", "MERGE", "PUT"), entityPath(playground, "h", randomKey())).body("{\"N\":2}");
                base = "update a playground entity";
            }
            case 4 -> {
                r = client.request("GET", "Tables");
                base = "query tables";
            }
            case 5 -> {
                r = client.request("GET", "?restype=service&comp=properties");
                base = "read service properties";
            }
            case 6 -> {
                r = client.request("PUT", playground + "?comp=acl").contentType("application/xml")
                        .body(aclXml());
                base = "set the playground's ACL";
            }
            case 7 -> {
                r = client.request("OPTIONS", oneOf(playground, "Tables", "", "$batch", seedTable + "()")).unsigned();
                if (chance(80)) {
                    r.header("Origin", oneOf("https://app.example", "null", "", "*", "https://ü.example"));
                }
                if (chance(80)) {
                    r.header("Access-Control-Request-Method", oneOf("GET", "PUT", "MERGE", "FOO", "", "get"));
                }
                if (chance(50)) {
                    r.header("Access-Control-Request-Headers", oneOf("x-ms-version", "content-type, x-ms-date", "", ",,"));
                }
                base = "CORS preflight";
            }
            default -> {
                r = client.request("DELETE", entityPath(playground, "h", randomKey())).header("If-Match", "*");
                base = "delete a playground entity";
            }
        }
        List<String> changed = new ArrayList<>();
        for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
            String name = oneOf("x-ms-version", "Accept", "Content-Type", "DataServiceVersion", "MaxDataServiceVersion",
                    "Prefer", "If-Match", "If-None-Match", "x-ms-session-token", "x-ms-client-request-id", "X-HTTP-Method",
                    "Origin", "Expect", "Content-MD5", "Range", "x-ms-date", "Date", "Accept-Charset", "User-Agent");
            String value = switch (name) {
                case "x-ms-version" -> oneOf(VERSIONS);
                case "Accept" -> oneOf(ACCEPTS);
                case "Content-Type" -> oneOf(CONTENT_TYPES);
                case "DataServiceVersion", "MaxDataServiceVersion" -> oneOf("3.0", "3.0;NetFx", "1.0", "2.0", "4.0",
                        "garbage", "");
                case "Prefer" -> oneOf(PREFERS);
                case "If-Match", "If-None-Match" -> oneOf("*", STALE_ETAG, "W/", "\"a\", \"b\"", "", "W/\"datetime'x'\"",
                        "W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"");
                case "x-ms-session-token" -> sessionToken();
                case "x-ms-client-request-id" -> chance(80) ? randomAscii(1 + rnd.nextInt(40)) : "c".repeat(2000);
                case "X-HTTP-Method" -> oneOf("MERGE", "PUT", "DELETE", "GET", "FOO", "");
                case "Expect" -> oneOf("100-continue", "200-ok", "");
                case "x-ms-date", "Date" -> oneOf("Mon, 01 Jan 2001 00:00:00 GMT", "garbage", "",
                        SharedKeySigning.httpDate(java.time.ZonedDateTime.now().plusMinutes(rnd.nextInt(60) - 30)));
                default -> randomAscii(rnd.nextInt(30));
            };
            if (chance(15)) {
                r.header(name, value); // may repeat a header the request already has
            } else {
                r.set(name, value);
            }
            changed.add(name);
        }
        return framed(i, Kind.HEADERS, base + " with " + changed, signed(r));
    }

    private String sessionToken() {
        return switch (rnd.nextInt(8)) {
            case 0 -> rnd.nextInt(6) + ":" + rnd.nextInt(5);
            case 1 -> rnd.nextInt(6) + ":" + (rnd.nextLong() & Long.MAX_VALUE);
            case 2 -> "0:0,1:0,2:0,3:0";
            case 3 -> oneOf("", ":", "0:", ":0", "-1:5", "0:-1", "a:b", "0:1:2", "0;1", "99999999999:0");
            case 4 -> String.join(",", java.util.Collections.nCopies(65, "0:0"));
            case 5 -> "0:9223372036854775807";
            case 6 -> "0:9223372036854775808";
            default -> rnd.nextInt(4) + ":" + rnd.nextInt(1000);
        };
    }

    private String aclXml() {
        String xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers>"
                + ("<SignedIdentifier><Id>" + randomAscii(1 + rnd.nextInt(70)) + "</Id><AccessPolicy><Start>"
                        + oneOf("2024-01-01T00:00:00Z", "garbage", "") + "</Start><Expiry>2099-01-01T00:00:00Z</Expiry>"
                        + "<Permission>" + oneOf("raud", "r", "x", "", "rrrr") + "</Permission></AccessPolicy>"
                        + "</SignedIdentifier>").repeat(rnd.nextInt(7))
                + "</SignedIdentifiers>";
        if (chance(30)) {
            xml = oneOf("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><SignedIdentifiers>&e;</SignedIdentifiers>",
                    xml.substring(0, rnd.nextInt(xml.length())), "<a><b></a>", "", "{}");
        }
        return xml;
    }

    // ------------------------------------------------------------------ framing

    private Case framing(int i) {
        RawTableClient.Request r = chance(50)
                ? client.request("POST", playground).body("{\"PartitionKey\":\"f\",\"RowKey\":" + jsonString(randomKey())
                        + ",\"N\":1}")
                : client.request("GET", chance(50) ? entityPath(seedTable, seedKey()[0], seedKey()[1]) : "Tables");
        signed(r);
        String text = new String(r.toKeepAliveBytes(), StandardCharsets.ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n") + 4;
        String head = text.substring(0, headEnd);
        String body = text.substring(headEnd);
        String summary;
        switch (rnd.nextInt(14)) {
            case 0 -> {
                int cut = rnd.nextInt(text.length());
                text = text.substring(0, cut);
                summary = "cut at byte " + cut;
            }
            case 1 -> {
                text = head.replaceFirst("Content-Length: \\d+\r\n", "").replace("\r\n\r\n", "\r\nTransfer-Encoding: chunked\r\n\r\n")
                        + chunked(body);
                summary = "chunked, perhaps badly";
            }
            case 2 -> {
                String length = oneOf(Integer.toString(body.length() + 1 + rnd.nextInt(50)),
                        Integer.toString(Math.max(0, body.length() - 1 - rnd.nextInt(5))), "99999999999999", "-1", "abc",
                        "1 2", "", "+5", "0x10", body.length() + ", " + body.length(), "99999999999999999999999");
                text = head.replaceFirst("Content-Length: \\d+", "Content-Length: " + length)
                        .replace("\r\n\r\n", head.contains("Content-Length") ? "\r\n\r\n" : "\r\nContent-Length: " + length
                                + "\r\n\r\n") + body;
                summary = "Content-Length " + length;
            }
            case 3 -> {
                text = head.replace("\r\n\r\n", "\r\nContent-Length: " + (body.length() + 3) + "\r\n\r\n") + body;
                summary = "two Content-Lengths";
            }
            case 4 -> {
                text = head.replace("\r\n\r\n", "\r\nTransfer-Encoding: " + oneOf("chunked", "gzip, chunked", "identity",
                        "chunked, chunked", "xchunked") + "\r\n\r\n") + body;
                summary = "Transfer-Encoding with Content-Length";
            }
            case 5 -> {
                text = text.replace("\r\n", "\n");
                summary = "bare LF line ends";
            }
            case 6 -> {
                String broken = oneOf("NoColonHere\r\n", " folded: continuation\r\n", "Bad Name: x\r\n", "X-A : b\r\n",
                        "X-Nul: a\u0000b\r\n", ":empty\r\n", "X-Long: " + "l".repeat(70_000) + "\r\n", "\u00ff\u00fe: x\r\n",
                        "X-Cr: a\rb\r\n");
                text = head.replace("\r\n\r\n", "\r\n" + broken + "\r\n") + body;
                summary = "a malformed header line";
            }
            case 7 -> {
                String line = head.substring(0, head.indexOf("\r\n"));
                String[] parts = line.split(" ", 3);
                String newLine = switch (rnd.nextInt(10)) {
                    case 0 -> parts[0] + " " + parts[1];
                    case 1 -> parts[0].toLowerCase() + " " + parts[1] + " " + parts[2];
                    case 2 -> parts[0] + " " + parts[1] + " HTTP/1.0";
                    case 3 -> parts[0] + " " + parts[1] + " " + oneOf("HTTP/2.0", "HTTP/9.9", "HTTP/1.1x", "HTTP/", "http/1.1");
                    case 4 -> parts[0] + " http://127.0.0.1:" + port + parts[1] + " " + parts[2];
                    case 5 -> parts[0] + " * " + parts[2];
                    case 6 -> parts[0] + "  " + parts[1] + "  " + parts[2];
                    case 7 -> parts[0] + "\t" + parts[1] + "\t" + parts[2];
                    case 8 -> "G\u00c9T " + parts[1] + " " + parts[2];
                    default -> parts[0] + " " + parts[1] + " with spaces " + parts[2];
                };
                text = newLine + text.substring(line.length());
                summary = "request line " + abbreviate(newLine);
            }
            case 8 -> {
                RawTableClient.Request second = client.request("GET", "Tables");
                signed(second);
                text = text + (chance(50) ? new String(second.toKeepAliveBytes(), StandardCharsets.ISO_8859_1)
                        : randomAscii(20) + "\r\n\r\n");
                summary = "a second request pipelined";
            }
            case 9 -> {
                byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
                int limit = Math.min(bytes.length, headEnd);
                for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
                    bytes[rnd.nextInt(limit)] = (byte) rnd.nextInt(256);
                }
                text = new String(bytes, StandardCharsets.ISO_8859_1);
                summary = "bytes of the head flipped";
            }
            case 10 -> {
                text = "\r\n\r\n" + text;
                summary = "blank lines before the request";
            }
            case 11 -> {
                text = head.replaceFirst("Host: [^\r]*\r\n", chance(50) ? "" : "Host: \r\n") + body;
                summary = "no or empty Host";
            }
            case 12 -> {
                text = head.replace("\r\n\r\n", "\r\nExpect: 100-continue\r\n\r\n");
                summary = "Expect: 100-continue, then no body";
            }
            default -> {
                text = randomAscii(1 + rnd.nextInt(200)) + (chance(50) ? "\r\n\r\n" : "");
                summary = "random bytes";
            }
        }
        return new Case(i, Kind.FRAMING, summary, text.getBytes(StandardCharsets.ISO_8859_1), false);
    }

    private String chunked(String body) {
        StringBuilder sb = new StringBuilder();
        int pos = 0;
        while (pos < body.length()) {
            int n = Math.min(body.length() - pos, 1 + rnd.nextInt(16));
            String size = chance(85) ? Integer.toHexString(n) : oneOf("zz", "-1", "ffffffffffffffffffff", "", " ", "1;ext",
                    Integer.toHexString(n) + ";" + randomAscii(5), Integer.toHexString(n + 3));
            sb.append(size).append("\r\n").append(body, pos, pos + n).append(chance(95) ? "\r\n" : "");
            pos += n;
        }
        return sb.append(oneOf("0\r\n\r\n", "0\r\n\r\n", "0\r\nX-Trailer: t\r\n\r\n", "0\r\n", "", "0\r\nbad trailer\r\n\r\n"))
                .toString();
    }

    // ------------------------------------------------------------------ vocabulary

    private Case framed(int i, Kind kind, String summary, RawTableClient.Request r) {
        return new Case(i, kind, summary, r.toKeepAliveBytes(), true);
    }

    /** Signs {@code r} with SharedKey or SharedKeyLite (a preflight stays unsigned). */
    private RawTableClient.Request signed(RawTableClient.Request r) {
        RawTableClient.Signing how = chance(50) ? RawTableClient.Signing.SHARED_KEY : RawTableClient.Signing.SHARED_KEY_LITE;
        return r.method().equals("OPTIONS") ? r : r.signing(how);
    }

    private static String entityPath(String table, String pk, String rk) {
        return table + "(PartitionKey=%27" + RawTableClient.encode(pk.replace("'", "''")) + "%27,RowKey=%27"
                + RawTableClient.encode(rk.replace("'", "''")) + "%27)";
    }

    private String[] seedKey() {
        return seedKeys.get(rnd.nextInt(seedKeys.size()));
    }

    private String randomKey() {
        return chance(70) ? "k" + rnd.nextInt(1000) : randomString(1 + rnd.nextInt(chance(5) ? 600 : 12));
    }

    private String randomTableName() {
        return oneOf(tablePrefix + "Missing", "Tables", "tables", "$batch", "a", "ab", "1abc", "a".repeat(64), "x-y",
                "$MetricsHourPrimaryTransactionsTable", seedTable.toLowerCase(), "Ünïcode", "");
    }

    private String randomString(int length) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < length) {
            int pick = rnd.nextInt(10);
            if (pick < 6) {
                sb.append((char) ('a' + rnd.nextInt(26)));
            } else if (pick < 9) {
                sb.append(oneOf(TRICKY));
            } else {
                sb.appendCodePoint(rnd.nextInt(0x2FFFF));
            }
        }
        return sb.toString();
    }

    private String randomAscii(int length) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < length; k++) {
            sb.append((char) (0x20 + rnd.nextInt(0x5f)));
        }
        return sb.toString();
    }

    private String mutateText(String text) {
        if (text.isEmpty()) {
            return oneOf("(", "'", "eq");
        }
        int at = rnd.nextInt(text.length());
        return switch (rnd.nextInt(5)) {
            case 0 -> text.substring(0, at);
            case 1 -> text.substring(0, at) + text.substring(Math.min(text.length(), at + 1 + rnd.nextInt(5)));
            case 2 -> text.substring(0, at) + oneOf("(", ")", "'", " ", "and", "not", "eq", "''", "\u0000", "é")
                    + text.substring(at);
            case 3 -> text + text;
            default -> "(".repeat(1 + rnd.nextInt(300)) + text + ")".repeat(rnd.nextInt(300));
        };
    }

    private byte[] mutateBytes(byte[] bytes) {
        if (bytes.length == 0) {
            return new byte[] {(byte) rnd.nextInt(256)};
        }
        byte[] out = bytes.clone();
        int at = rnd.nextInt(out.length);
        return switch (rnd.nextInt(6)) {
            case 0 -> Arrays.copyOf(out, at);
            case 1 -> {
                out[at] = (byte) rnd.nextInt(256);
                yield out;
            }
            case 2 -> {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.write(out, 0, at);
                b.writeBytes(new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xED, (byte) 0xA0, (byte) 0x80, (byte) 0xFF});
                b.write(out, at, out.length - at);
                yield b.toByteArray();
            }
            case 3 -> {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.write(out, 0, at);
                b.write(out, 0, out.length);
                yield b.toByteArray();
            }
            case 4 -> {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.write(out, 0, at);
                b.writeBytes(oneOf(",", "}", "{", "\"", ":", "[", "\\", "\u0000", "null", "1e999999")
                        .getBytes(StandardCharsets.UTF_8));
                b.write(out, at, out.length - at);
                yield b.toByteArray();
            }
            default -> new byte[0];
        };
    }

    private boolean chance(int percent) {
        return rnd.nextInt(100) < percent;
    }

    @SafeVarargs
    private <T> T oneOf(T... choices) {
        return choices[rnd.nextInt(choices.length)];
    }

    private static String abbreviate(String s) {
        String oneLine = s.replaceAll("[\\r\\n]", " ");
        return oneLine.length() <= 80 ? oneLine : oneLine.substring(0, 80) + "...";
    }
}
