package io.tablestream.core.odata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.Entity;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EntityBodyReadingTest {

    static Stream<Arguments> rejectedBodies() {
        return Stream.of(
                // not one JSON object
                arguments("", ErrorCode.INVALID_INPUT),
                arguments("   ", ErrorCode.INVALID_INPUT),
                arguments("[]", ErrorCode.INVALID_INPUT),
                arguments("\"entity\"", ErrorCode.INVALID_INPUT),
                arguments("42", ErrorCode.INVALID_INPUT),
                arguments("null", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":1", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":1,}", ErrorCode.INVALID_INPUT),
                arguments("{'P':1}", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":01}", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":NaN}", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":1} x", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":1}{}", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":1 /* comment */}", ErrorCode.INVALID_INPUT),
                // duplicates
                arguments("{\"P\":1,\"P\":2}", ErrorCode.DUPLICATE_PROPERTIES_SPECIFIED),
                arguments("{\"P\":null,\"P\":2}", ErrorCode.DUPLICATE_PROPERTIES_SPECIFIED),
                arguments("{\"PartitionKey\":\"a\",\"PartitionKey\":\"b\"}", ErrorCode.DUPLICATE_PROPERTIES_SPECIFIED),
                arguments("{\"P@odata.type\":\"Edm.Int64\",\"P@odata.type\":\"Edm.Int64\",\"P\":\"1\"}",
                        ErrorCode.DUPLICATE_PROPERTIES_SPECIFIED),
                // non-primitive values
                arguments("{\"P\":{}}", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":[1,2]}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.String\",\"P\":{\"a\":1}}", ErrorCode.INVALID_INPUT),
                // keys
                arguments("{\"PartitionKey\":1,\"RowKey\":\"r\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"PartitionKey\":\"p\",\"RowKey\":true}", ErrorCode.INVALID_INPUT),
                arguments("{\"PartitionKey\":{},\"RowKey\":\"r\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"PartitionKey@odata.type\":\"Edm.Int32\",\"PartitionKey\":\"1\"}", ErrorCode.INVALID_INPUT),
                // annotations
                arguments("{\"P@odata.type\":\"Edm.Int16\",\"P\":1}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Decimal\",\"P\":\"1\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"edm.int32\",\"P\":1}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Foo\",\"P\":null}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":5,\"P\":1}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":null,\"P\":1}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int32\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"Q\":1,\"P@odata.type\":\"Edm.Int32\"}", ErrorCode.INVALID_INPUT),
                // values not of their annotated type
                arguments("{\"P@odata.type\":\"Edm.String\",\"P\":1}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.String\",\"P\":true}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Boolean\",\"P\":1}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Boolean\",\"P\":\"yes\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int32\",\"P\":1.5}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int32\",\"P\":1.0}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int32\",\"P\":2147483648}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int32\",\"P\":\"12a\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int32\",\"P\":true}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int64\",\"P\":255}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int64\",\"P\":\"9223372036854775808\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int64\",\"P\":\"1.0\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Int64\",\"P\":\"0x10\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Double\",\"P\":\"abc\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Double\",\"P\":\"1d\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Double\",\"P\":\"0x1p3\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Double\",\"P\":\"nan\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Double\",\"P\":\"1.797693134862316e308\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Double\",\"P\":1e400}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Double\",\"P\":true}", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":1e400}", ErrorCode.INVALID_INPUT),
                arguments("{\"P\":-1e400}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Guid\",\"P\":\"not-a-guid\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Guid\",\"P\":\"1-1-1-1-1\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Guid\",\"P\":1}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Binary\",\"P\":\"AQIDBA\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Binary\",\"P\":\"AQID-A==\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Binary\",\"P\":\"@@@@\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.Binary\",\"P\":[1,2]}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.DateTime\",\"P\":\"yesterday\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.DateTime\",\"P\":\"2024-13-01T00:00:00Z\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.DateTime\",\"P\":\"2024-05-01T00:00:00.Z\"}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.DateTime\",\"P\":\"9999-12-31T23:59:59.99999996Z\"}", ErrorCode.OUT_OF_RANGE_INPUT),
                arguments("{\"P@odata.type\":\"Edm.DateTime\",\"P\":1714521600}", ErrorCode.INVALID_INPUT),
                arguments("{\"P@odata.type\":\"Edm.DateTime\",\"P\":\"0001-01-01T00:00:00Z\"}", ErrorCode.OUT_OF_RANGE_INPUT),
                arguments("{\"P@odata.type\":\"Edm.DateTime\",\"P\":\"1600-12-31T23:59:59.9999999Z\"}", ErrorCode.OUT_OF_RANGE_INPUT));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("rejectedBodies")
    void rejectsABodyWithTheServiceErrorCode(String body, ErrorCode expected) {
        assertThatThrownBy(() -> ODataJsonReader.readEntity(body.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(TableServiceException.class, e -> assertThat(e.errorCode()).isEqualTo(expected));
    }

    @Test
    void rejectsInvalidUtf8AsInvalidInput() {
        byte[] body = {'{', '"', 'P', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        assertThatThrownBy(() -> ODataJsonReader.readEntity(body))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT));
    }

    @Test
    void rejectsNestingBeyondTheLimitEvenInIgnoredMembers() {
        String deep = "[".repeat(JsonSupport.MAX_NESTING_DEPTH + 5) + "]".repeat(JsonSupport.MAX_NESTING_DEPTH + 5);
        assertThatThrownBy(() -> read("{\"odata.foo\":" + deep + "}"))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT));
    }

    @Test
    void rejectsAnOverlongNumber() {
        assertThatThrownBy(() -> read("{\"P\":" + "1".repeat(JsonSupport.MAX_NUMBER_LENGTH + 1) + "}"))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT));
    }

    @Test
    void rejectsABodyLargerThanTheDocumentLimitAsTooLarge() {
        byte[] body = new byte[(int) JsonSupport.MAX_DOCUMENT_BYTES + 10];
        Arrays.fill(body, (byte) 'a');
        byte[] prefix = "{\"P\":\"".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        body[body.length - 2] = '"';
        body[body.length - 1] = '}';
        assertThatThrownBy(() -> ODataJsonReader.readEntity(new ByteArrayInputStream(body)))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.REQUEST_BODY_TOO_LARGE));
    }

    @Test
    void rejectsMoreMembersThanTheSanityBound() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i <= ODataJsonReader.MAX_MEMBERS; i++) {
            sb.append(i == 0 ? "" : ",").append("\"p").append(i).append("\":null");
        }
        assertThatThrownBy(() -> read(sb.append('}').toString()))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TOO_MANY_PROPERTIES));
    }

    @Test
    void readsKeysAndPropertiesInBodyOrderIgnoringControlInformationAndTimestamp() {
        EntityBody body = read("""
                {"odata.metadata":"http://x/$metadata#T/@Element","odata.etag":"W/\\"datetime'x'\\"",
                 "odata.foo":{"nested":[1,{"a":null}]},
                 "PartitionKey":"pk","RowKey":"rk",
                 "Timestamp@odata.type":"Edm.DateTime","Timestamp":"2020-01-01T00:00:00Z",
                 "b":"two","a":1,"Gone":null,"TypedGone@odata.type":"Edm.Int64","TypedGone":null}""");
        assertThat(body.partitionKey()).isEqualTo("pk");
        assertThat(body.rowKey()).isEqualTo("rk");
        assertThat(body.properties()).containsExactly(
                Map.entry("b", EdmString.of("two")), Map.entry("a", EdmInt32.of(1)));
    }

    @Test
    void treatsAbsentOrNullKeysAsMissing() {
        assertThat(read("{\"P\":1}").partitionKey()).isNull();
        assertThat(read("{\"PartitionKey\":null,\"RowKey\":\"\"}").partitionKey()).isNull();
        assertThat(read("{\"PartitionKey\":null,\"RowKey\":\"\"}").rowKey()).isEmpty();
    }

    @Test
    void makesAnEntityUnderTheUrlKeysWhateverTheBodySays() {
        Entity entity = read("{\"PartitionKey\":\"body\",\"P\":1}").toEntity("url-pk", "url-rk");
        assertThat(entity.partitionKey()).isEqualTo("url-pk");
        assertThat(entity.rowKey()).isEqualTo("url-rk");
        assertThat(entity.properties()).containsEntry("P", EdmInt32.of(1));
        assertThat(entity.timestamp()).isNull();
    }

    @Test
    void refusesToMakeAnEntityWithoutKeys() {
        assertThatThrownBy(() -> read("{\"RowKey\":\"r\"}").toEntity())
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PROPERTIES_NEED_VALUE));
    }

    @Test
    void leavesPropertyNameRulesToEntityRules() {
        EntityBody body = read("{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"bad name\":1,\"x@other.annotation\":2}");
        assertThat(body.properties()).containsKeys("bad name", "x@other.annotation");
    }

    @Test
    void readsFromAStreamWithoutClosingIt() {
        boolean[] closed = {false};
        InputStream in = new ByteArrayInputStream("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}".getBytes(StandardCharsets.UTF_8)) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        assertThat(ODataJsonReader.readEntity(in).partitionKey()).isEqualTo("p");
        assertThat(closed[0]).isFalse();
    }

    @Test
    void reportsAFailingStreamAsAnIoFailureNotAsBadInput() {
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                throw new IOException("connection reset");
            }
        };
        assertThatThrownBy(() -> ODataJsonReader.readEntity(broken)).isInstanceOf(UncheckedIOException.class);
    }

    private static EntityBody read(String json) {
        return ODataJsonReader.readEntity(json.getBytes(StandardCharsets.UTF_8));
    }
}
