package io.tablestream.server.robustness;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/** What every error answer of the service looks like, checked in one place. */
final class ServiceErrors {
    private static final JsonFactory JSON = new JsonFactory();

    private ServiceErrors() {
    }

    /**
     * The answer is {@code status} with {@code x-ms-error-code: code}, an {@code x-ms-request-id}, and
     * (unless it answers a HEAD) an {@code odata.error} body naming the same code, whose message ends
     * with that request id.
     */
    static void assertServiceError(RawTableClient.Response r, int status, String code) {
        assertThat(r.status()).as("status of %s", r).isEqualTo(status);
        assertServiceErrorShape(r, code);
    }

    /** The answer is a well-formed service error with {@code code} (whatever its status). */
    static void assertServiceErrorShape(RawTableClient.Response r, String code) {
        assertThat(r.header("x-ms-error-code")).as("x-ms-error-code of %s", r).isEqualTo(code);
        assertWellFormedError(r);
        assertThat(odataError(r.body()).get("code")).as("odata.error.code of %s", r).isEqualTo(code);
    }

    /** A 4xx with the service's error headers and body, whatever the code. */
    static void assertWellFormedClientError(RawTableClient.Response r) {
        assertThat(r.status()).as("status of %s", r).isBetween(400, 499);
        assertWellFormedError(r);
        assertThat(odataError(r.body()).get("code")).isEqualTo(r.header("x-ms-error-code"));
    }

    private static void assertWellFormedError(RawTableClient.Response r) {
        String requestId = r.header("x-ms-request-id");
        assertThat(requestId).as("x-ms-request-id of %s", r).isNotBlank();
        assertThat(r.header("Content-Type")).as("Content-Type of %s", r).startsWith("application/json");
        Map<String, String> error = odataError(r.body());
        assertThat(error.get("lang")).isEqualTo("en-US");
        assertThat(error.get("value")).as("message of %s", r).isNotBlank().contains("RequestId:" + requestId);
    }

    /** {@code code}, {@code lang} and {@code value} of an {@code odata.error} body; fails when it is not one. */
    static Map<String, String> odataError(byte[] body) {
        Map<String, String> found = new HashMap<>();
        try (JsonParser p = JSON.createParser(body)) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            expect(p.nextToken(), JsonToken.FIELD_NAME);
            assertThat(p.currentName()).isEqualTo("odata.error");
            expect(p.nextToken(), JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals("code") && t == JsonToken.VALUE_STRING) {
                    found.put("code", p.getText());
                } else if (name.equals("message") && t == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String inner = p.currentName();
                        p.nextToken();
                        found.put(inner, p.getText());
                    }
                } else {
                    p.skipChildren();
                }
            }
            expect(p.nextToken(), JsonToken.END_OBJECT);
            assertThat(p.nextToken()).as("content after the error object").isNull();
        } catch (IOException e) {
            throw new UncheckedIOException("Not an odata.error body: " + new String(body), e);
        }
        return found;
    }

    private static void expect(JsonToken actual, JsonToken expected) {
        assertThat(actual).isEqualTo(expected);
    }
}
