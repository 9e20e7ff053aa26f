package io.tablestream.protocol.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tablestream.core.error.TableServiceException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random mutations of valid batches (fixed seeds, so a failure reproduces): whatever the bytes, parsing
 * ends in a {@link BatchRequest} that keeps the format's invariants or in a {@link TableServiceException},
 * never in another exception.
 */
class BatchRequestFuzzTest {
    private static final String CT = "multipart/mixed; boundary=batch_1";
    private static final String CHANGE_SET = BatchRequestParserTest.crlf("""
            preamble
            --batch_1
            Content-Type: multipart/mixed; boundary=changeset_1

            --changeset_1
            Content-Type: application/http
            Content-Transfer-Encoding: binary

            POST http://127.0.0.1:10002/devstoreaccount1/t HTTP/1.1
            Content-Length: 44
            Prefer: return-no-content
            Content-Type: application/json;odata=nometadata
            DataServiceVersion: 3.0
            Accept: application/json;odata=minimalmetadata

            {"RowKey":"r0","PartitionKey":"pk","n":1234}
            --changeset_1
            Content-Type: application/http
            Content-Transfer-Encoding: binary
            Content-ID: 7

            POST http://127.0.0.1:10002/devstoreaccount1/t(PartitionKey='pk',RowKey='r1') HTTP/1.1
            X-HTTP-Method: MERGE
            If-Match: W/"datetime'2024-05-01T12%3A00%3A00.1234567Z'"
            Accept: application/json;
             odata=minimalmetadata

            {"RowKey":"r1","PartitionKey":"pk"}
            --changeset_1
            Content-Type: application/http

            DELETE http://127.0.0.1:10002/devstoreaccount1/t(PartitionKey='pk',RowKey='r2') HTTP/1.1
            Content-Length: 0
            If-Match: *


            --changeset_1--

            --batch_1--
            epilogue
            """);
    private static final String QUERY = BatchRequestParserTest.crlf("""
            --batch_1
            Content-Type: application/http
            Content-Transfer-Encoding: binary

            GET http://127.0.0.1:10002/devstoreaccount1/t(PartitionKey='pk',RowKey='r2') HTTP/1.1
            Accept: application/json;odata=minimalmetadata

            --batch_1
            """);
    private static final List<String> FRAGMENTS = List.of("\r\n", "\n", "\r", "--", "--batch_1", "--changeset_1",
            "--changeset_1--", "--batch_1--", "\r\n--changeset_1\r\n", ":", " ", "\t", "\"", ";", "=",
            "Content-Type: multipart/mixed; boundary=changeset_1\r\n\r\n", "Content-Type: application/http\r\n\r\n",
            "Content-Length: 9999\r\n", "Content-Length: 0\r\n", "X-HTTP-Method: DELETE\r\n", "GET ", "POST ",
            " HTTP/1.1", "\u0000", "\u00ff", "é", "😀");

    @Test
    void mutatedBatchesEitherParseOrFailWithATableServiceException() {
        fuzz(CHANGE_SET, 0x7AB1E5L, 20_000);
    }

    @Test
    void mutatedLineFeedOnlyBatchesEitherParseOrFailWithATableServiceException() {
        fuzz(CHANGE_SET.replace("\r\n", "\n"), 0xBA7C4L, 10_000);
    }

    @Test
    void mutatedQueryBatchesEitherParseOrFailWithATableServiceException() {
        fuzz(QUERY, 0x9E7L, 10_000);
    }

    @Test
    void theSeedsThemselvesParse() {
        assertThat(parse(bytes(CHANGE_SET), CT).operations()).hasSize(3);
        assertThat(parse(bytes(CHANGE_SET.replace("\r\n", "\n")), CT).operations()).hasSize(3);
        assertThat(parse(bytes(QUERY), CT).isQuery()).isTrue();
    }

    @Test
    void randomTextOfTheFormatsFragmentsEitherParsesOrFailsWithATableServiceException() {
        Random random = new Random(0xF2A6L);
        for (int i = 0; i < 10_000; i++) {
            StringBuilder sb = new StringBuilder();
            int pieces = random.nextInt(60);
            for (int p = 0; p < pieces; p++) {
                sb.append(FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
            }
            check(bytes(sb.toString()), CT, "fragments #" + i);
        }
    }

    private static void fuzz(String seed, long randomSeed, int iterations) {
        Random random = new Random(randomSeed);
        byte[] original = bytes(seed);
        int parsed = 0;
        for (int i = 0; i < iterations; i++) {
            byte[] body = original;
            int mutations = 1 + random.nextInt(4);
            for (int m = 0; m < mutations; m++) {
                body = mutate(body, random);
            }
            String contentType = random.nextInt(20) == 0 ? mutateContentType(random) : CT;
            if (check(body, contentType, "seed " + randomSeed + " iteration " + i)) {
                parsed++;
            }
        }
        // The mutations must leave some batches whole, or the test would only ever see rejections.
        assertThat(parsed).isGreaterThan(iterations / 50);
    }

    /** Whether {@code body} parsed; fails the test on any exception but a TableServiceException. */
    private static boolean check(byte[] body, String contentType, String where) {
        try {
            BatchRequest batch = parse(body, contentType);
            assertInvariants(batch);
            return true;
        } catch (TableServiceException e) {
            assertThat(e.errorCode()).isNotNull();
            assertThat(e.getMessage()).isNotBlank();
            return false;
        } catch (RuntimeException | Error e) {
            if (e instanceof AssertionError) {
                throw e;
            }
            fail("Parsing threw " + e + " at " + where + " for Content-Type " + contentType + " and body\n"
                    + new String(body, StandardCharsets.ISO_8859_1).replace("\r", "\\r").replace("\n", "\\n\n"), e);
            return false;
        }
    }

    private static void assertInvariants(BatchRequest batch) {
        List<BatchOperation> ops = batch.operations();
        assertThat(ops).isNotEmpty().hasSizeLessThanOrEqualTo(100);
        for (int i = 0; i < ops.size(); i++) {
            BatchOperation op = ops.get(i);
            assertThat(op.index()).isEqualTo(i);
            assertThat(op.url()).isNotBlank();
            assertThat(op.headers().size()).isLessThanOrEqualTo(100);
            if (batch.isQuery()) {
                assertThat(op.method()).isEqualTo(BatchOperation.Method.GET);
            } else {
                assertThat(op.method()).isNotEqualTo(BatchOperation.Method.GET);
            }
        }
        if (batch.isQuery()) {
            assertThat(ops).hasSize(1);
        }
    }

    private static byte[] mutate(byte[] body, Random random) {
        int n = body.length;
        switch (random.nextInt(7)) {
            case 0: { // overwrite a byte
                if (n == 0) {
                    return body;
                }
                byte[] copy = body.clone();
                copy[random.nextInt(n)] = (byte) random.nextInt(256);
                return copy;
            }
            case 1: { // delete a range
                if (n == 0) {
                    return body;
                }
                int from = random.nextInt(n);
                int to = Math.min(n, from + 1 + random.nextInt(24));
                return concat(Arrays.copyOfRange(body, 0, from), Arrays.copyOfRange(body, to, n));
            }
            case 2: { // insert a fragment of the format
                int at = random.nextInt(n + 1);
                byte[] fragment = bytes(FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
                return concat(Arrays.copyOfRange(body, 0, at), fragment, Arrays.copyOfRange(body, at, n));
            }
            case 3: { // duplicate a range
                if (n == 0) {
                    return body;
                }
                int from = random.nextInt(n);
                int to = Math.min(n, from + 1 + random.nextInt(400));
                return concat(Arrays.copyOfRange(body, 0, to), Arrays.copyOfRange(body, from, n));
            }
            case 4: // cut short
                return Arrays.copyOf(body, random.nextInt(n + 1));
            case 5: { // line ends: CRLF to LF or LF to CRLF
                String text = new String(body, StandardCharsets.ISO_8859_1);
                text = random.nextBoolean() ? text.replace("\r\n", "\n") : text.replace("\n", "\r\n");
                return text.getBytes(StandardCharsets.ISO_8859_1);
            }
            default: { // insert random bytes
                int at = random.nextInt(n + 1);
                byte[] noise = new byte[1 + random.nextInt(8)];
                random.nextBytes(noise);
                return concat(Arrays.copyOfRange(body, 0, at), noise, Arrays.copyOfRange(body, at, n));
            }
        }
    }

    private static String mutateContentType(Random random) {
        String[] variants = {null, "", "multipart/mixed", "multipart/mixed; boundary=\"batch_1\"",
                "multipart/mixed; boundary=batch_", "multipart/mixed; boundary=\"batch_1", "text/plain; boundary=batch_1",
                "multipart/mixed;;boundary = batch_1 ;", "multipart/mixed; boundary=batch_1; boundary=x", "\u0000/\u0000"};
        return variants[random.nextInt(variants.length)];
    }

    private static BatchRequest parse(byte[] body, String contentType) {
        return BatchRequest.parse(body, contentType);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... arrays) {
        int length = 0;
        for (byte[] a : arrays) {
            length += a.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] a : arrays) {
            System.arraycopy(a, 0, out, at, a.length);
            at += a.length;
        }
        return out;
    }
}
