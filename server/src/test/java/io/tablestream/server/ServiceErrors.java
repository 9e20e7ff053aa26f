package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.models.TableServiceException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** What every error answer of the service looks like, checked in one place: as the SDK surfaces it, and raw. */
public final class ServiceErrors {
    private static final JsonFactory JSON = new JsonFactory();

    private ServiceErrors() {
    }

    /**
     * Asserts that {@code call} fails with a {@link TableServiceException} of {@code status} whose
     * error code — in the parsed {@code odata.error} and in {@code x-ms-error-code} — is {@code code}.
     */
    public static TableServiceException assertServiceError(ThrowingCallable call, int status, String code) {
        TableServiceException e = catchThrowableOfType(TableServiceException.class, call);
        assertThat(e).as("expected %d %s", status, code).isNotNull();
        assertThat(e.getResponse().getStatusCode()).as("status of %s", e.getMessage()).isEqualTo(status);
        assertThat(e.getResponse().getHeaderValue("x-ms-error-code")).as("x-ms-error-code").isEqualTo(code);
        assertThat(e.getValue()).as("parsed odata.error").isNotNull();
        assertThat(e.getValue().getErrorCode().toString()).as("odata.error code").isEqualTo(code);
        return e;
    }

    /**
     * Asserts that {@code call} fails with an answer of {@code status} and {@code x-ms-error-code: code}
     * as any {@link HttpResponseException}: what the SDK throws where it cannot parse the error into a
     * {@link TableServiceException} — pages fetched while iterating (an internal subtype), and the XML
     * {@code <Error>} of the ACL operations (its model expects another root element).
     */
    public static HttpResponseException assertHttpError(int status, String code, ThrowingCallable call) {
        HttpResponseException e = catchThrowableOfType(HttpResponseException.class, call);
        assertThat(e).as("expected %d %s", status, code).isNotNull();
        assertThat(e.getResponse().getStatusCode()).as("status of %s", e.getMessage()).isEqualTo(status);
        assertThat(e.getResponse().getHeaderValue("x-ms-error-code")).as("x-ms-error-code of %s", e.getMessage())
                .isEqualTo(code);
        return e;
    }

    /**
     * The answer is {@code status} with {@code x-ms-error-code: code}, an {@code x-ms-request-id}, and
     * (unless it answers a HEAD) an {@code odata.error} body naming the same code, whose message ends
     * with that request id.
     */
    public static void assertServiceError(RawTableClient.Response r, int status, String code) {
        assertThat(r.status()).as("status of %s", r).isEqualTo(status);
        assertServiceErrorShape(r, code);
    }

    /**
     * The answer is {@code status} with {@code x-ms-error-code: code}, an {@code x-ms-request-id}, and
     * the storage {@code <Error>} XML body (the form of the XML operations and refused preflights)
     * naming the same code, whose message carries that request id.
     */
    public static void assertXmlServiceError(RawTableClient.Response r, int status, String code) {
        assertThat(r.status()).as("status of %s", r).isEqualTo(status);
        assertThat(r.header("x-ms-error-code")).as("x-ms-error-code of %s", r).isEqualTo(code);
        String requestId = r.header("x-ms-request-id");
        assertThat(requestId).as("x-ms-request-id of %s", r).isNotBlank();
        assertThat(r.header("Content-Type")).as("Content-Type of %s", r).startsWith("application/xml");
        assertThat(r.body()).as("body of %s", r).contains("<Error><Code>" + code + "</Code><Message>")
                .contains("RequestId:" + requestId);
    }

    /** The answer is a well-formed service error with {@code code} (whatever its status). */
    public static void assertServiceErrorShape(RawTableClient.Response r, String code) {
        assertThat(r.header("x-ms-error-code")).as("x-ms-error-code of %s", r).isEqualTo(code);
        assertWellFormedError(r);
        assertThat(odataError(r.bytes()).get("code")).as("odata.error.code of %s", r).isEqualTo(code);
    }

    /** A 4xx with the service's error headers and body, whatever the code. */
    public static void assertWellFormedClientError(RawTableClient.Response r) {
        assertThat(r.status()).as("status of %s", r).isBetween(400, 499);
        assertWellFormedError(r);
        assertThat(odataError(r.bytes()).get("code")).isEqualTo(r.header("x-ms-error-code"));
    }

    private static void assertWellFormedError(RawTableClient.Response r) {
        String requestId = r.header("x-ms-request-id");
        assertThat(requestId).as("x-ms-request-id of %s", r).isNotBlank();
        assertThat(r.header("Content-Type")).as("Content-Type of %s", r).startsWith("application/json");
        Map<String, String> error = odataError(r.bytes());
        assertThat(error.get("lang")).isEqualTo("en-US");
        assertThat(error.get("value")).as("message of %s", r).isNotBlank().contains("RequestId:" + requestId);
    }

    /** {@code code}, {@code lang} and {@code value} of an {@code odata.error} body; fails when it is not one. */
    public static Map<String, String> odataError(byte[] body) {
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
