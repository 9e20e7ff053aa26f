package io.tablestream.core.continuation;

import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.core.storekey.RandomKeys;
import static io.tablestream.core.storekey.RandomKeys.escape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EntityKey;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class EntityContinuationTest {
    /** Characters safe unescaped in a header and in a query string, without the SDKs' ';' joiner. */
    private static final Pattern SAFE_TOKEN = Pattern.compile("1![1-9]?[0-9]{0,3}![A-Za-z0-9_-]*");

    @Test
    void roundTripsRandomValidKeys() {
        RandomKeys gen = new RandomKeys(1234L);
        for (int i = 0; i < 10_000; i++) {
            EntityContinuation c = EntityContinuation.at(gen.key(), gen.key());
            String pk = c.nextPartitionKeyToken();
            String rk = c.nextRowKeyToken();
            if (!SAFE_TOKEN.matcher(pk).matches() || !SAFE_TOKEN.matcher(rk).matches()) {
                throw new AssertionError("unsafe token for (" + escape(c.partitionKey()) + ", " + escape(c.rowKey()) + ")");
            }
            assertThat(EntityContinuation.fromQuery(pk, rk)).contains(c);
        }
    }

    @Test
    void roundTripsTheEmptyAndTheLongestKeys() {
        List<String> keys = List.of("", " ", "~".repeat(512), "\uFFFF".repeat(512),
                "\uD83D\uDE00".repeat(256), "\uDC00\uD800".repeat(256));
        for (String pk : keys) {
            for (String rk : keys) {
                EntityContinuation c = EntityContinuation.at(pk, rk);
                assertThat(EntityContinuation.fromQuery(c.nextPartitionKeyToken(), c.nextRowKeyToken())).contains(c);
            }
        }
        assertThat(EntityContinuation.at("\uFFFF".repeat(512), "").nextPartitionKeyToken()).hasSize(2 + 4 + 1 + 2048);
    }

    @Test
    void writesTheServiceShapeOfVersionLengthAndBase64() {
        EntityContinuation c = EntityContinuation.at("Smith", "Ben1898");
        assertThat(c.nextPartitionKeyToken()).isEqualTo("1!7!U21pdGg");
        assertThat(c.nextRowKeyToken()).isEqualTo("1!10!QmVuMTg5OA");
        assertThat(EntityContinuation.at("", "").nextRowKeyToken()).isEqualTo("1!0!");
        assertThat(EntityContinuation.at("a~b", "\u00E9").nextRowKeyToken()).isEqualTo("1!3!w6k");
    }

    @Test
    void isAbsentWhenTheRequestCarriesNoToken() {
        assertThat(EntityContinuation.fromQuery(null, null)).isEmpty();
    }

    @Test
    void resumesAtTheStartOfThePartitionWhenOnlyThePartitionKeyIsGiven() {
        assertThat(EntityContinuation.fromQuery("1!7!U21pdGg", null)).contains(EntityContinuation.at("Smith", ""));
    }

    @Test
    void rejectsARowKeyWithoutAPartitionKey() {
        assertInvalidInput(() -> EntityContinuation.fromQuery(null, "1!10!QmVuMTg5OA"));
    }

    static Stream<Arguments> hostileTokens() {
        return Stream.of(
                Arguments.of("empty, as an SDK sends a missing NextRowKey", ""),
                Arguments.of("blank", " "),
                Arguments.of("version only", "1"),
                Arguments.of("no length", "1!"),
                Arguments.of("empty length", "1!!"),
                Arguments.of("no second separator", "1!4"),
                Arguments.of("no second separator, payload", "1!YWJj"),
                Arguments.of("unknown version", "2!4!YWJj"),
                Arguments.of("version zero", "0!4!YWJj"),
                Arguments.of("padded version", "01!4!YWJj"),
                Arguments.of("leading space", " 1!4!YWJj"),
                Arguments.of("length too small", "1!3!YWJj"),
                Arguments.of("length too large", "1!5!YWJj"),
                Arguments.of("length with leading zero", "1!04!YWJj"),
                Arguments.of("signed length", "1!+4!YWJj"),
                Arguments.of("negative length", "1!-4!YWJj"),
                Arguments.of("length with space", "1!4 !YWJj"),
                Arguments.of("non-ASCII digit length", "1!\u0664!YWJj"),
                Arguments.of("huge length", "1!99999999999999999999!YWJj"),
                Arguments.of("length past int", "1!2147483648!YWJj"),
                Arguments.of("padding", "1!8!YWJjZA=="),
                Arguments.of("service-style '--' padding", "1!12!QmVuMTg5OA--"),
                Arguments.of("standard alphabet '+'", "1!4!YW+j"),
                Arguments.of("standard alphabet '/'", "1!4!YW/j"),
                Arguments.of("percent-encoded", "1!6!YW%4Aj"),
                Arguments.of("dot", "1!4!YW.j"),
                Arguments.of("impossible base64 length", "1!5!YWJjZ"),
                Arguments.of("unused bits set (ab is YWI)", "1!3!YWJ"),
                Arguments.of("unused bits set (a is YQ)", "1!2!YR"),
                Arguments.of("second token glued on", "1!4!YWJj;1!4!YWJj"),
                Arguments.of("parameter injection", "1!4!YWJj&NextRowKey=1!4!YWJj"),
                Arguments.of("header injection", "1!4!YWJj\r\nX-Injected: 1"),
                Arguments.of("trailing newline", "1!4!YWJj\n"),
                Arguments.of("markup", "<script>alert(1)</script>"),
                Arguments.of("filter injection", "' or PartitionKey ne '"),
                Arguments.of("huge token", "1!4096!" + "A".repeat(4096)),
                Arguments.of("longer than any key's token", "1!2052!" + "QUFB".repeat(513)),
                Arguments.of("key of 513 characters", raw("a".repeat(513).getBytes(StandardCharsets.US_ASCII))),
                Arguments.of("slash", raw(bytes("612f62"))),
                Arguments.of("backslash", raw(bytes("615c62"))),
                Arguments.of("number sign", raw(bytes("612362"))),
                Arguments.of("question mark", raw(bytes("613f62"))),
                Arguments.of("NUL", raw(bytes("6100"))),
                Arguments.of("tab", raw(bytes("09"))),
                Arguments.of("line feed", raw(bytes("610a"))),
                Arguments.of("U+001F", raw(bytes("1f"))),
                Arguments.of("DEL", raw(bytes("7f"))),
                Arguments.of("U+0085", raw(bytes("c285"))),
                Arguments.of("U+009F", raw(bytes("c29f"))),
                Arguments.of("overlong '/'", raw(bytes("c0af"))),
                Arguments.of("overlong NUL", raw(bytes("c080"))),
                Arguments.of("overlong 3-byte", raw(bytes("e080af"))),
                Arguments.of("4-byte UTF-8", raw(bytes("f09f9880"))),
                Arguments.of("stray continuation byte", raw(bytes("80"))),
                Arguments.of("truncated sequence", raw(bytes("e282"))),
                Arguments.of("byte 0xFF", raw(bytes("ff"))));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("hostileTokens")
    void rejectsAHostilePartitionKeyToken(String why, String token) {
        assertInvalidInput(() -> EntityContinuation.fromQuery(token, "1!4!YWJj"));
        assertInvalidInput(() -> EntityContinuation.fromQuery(token, null));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("hostileTokens")
    void rejectsAHostileRowKeyToken(String why, String token) {
        assertInvalidInput(() -> EntityContinuation.fromQuery("1!4!YWJj", token));
    }

    @Test
    void acceptsExactlyTheBoundaryLengths() {
        String longest = raw("a".repeat(512).getBytes(StandardCharsets.US_ASCII));
        assertThat(EntityContinuation.fromQuery(longest, null)).contains(EntityContinuation.at("a".repeat(512), ""));
    }

    @Test
    void resumesAScanAtTheKeyItself() {
        EntityContinuation c = EntityContinuation.at(EntityKey.of(9, "p", "r"));
        assertThat(c.resumeKey(9)).isEqualTo(KeyCodec.encode(9, "p", "r"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a/b", "a\u0000", "\t", "\u007F"})
    void refusesToBeMadeFromAnInvalidKey(String key) {
        assertThatThrownBy(() -> EntityContinuation.at(key, "r")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EntityContinuation.at("p", key)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EntityContinuation.at("a".repeat(513), "r")).isInstanceOf(IllegalArgumentException.class);
    }

    static void assertInvalidInput(Runnable call) {
        assertThatThrownBy(call::run)
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT);
                    assertThat(e.httpStatus()).isEqualTo(400);
                });
    }

    static String raw(byte[] payload) {
        String b64 = Base64.getUrlEncoder().withoutPadding().encodeToString(payload);
        return "1!" + b64.length() + "!" + b64;
    }

    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    @Test
    void buildsHostileTokensThatAreWellFormedApartFromTheirPayload() {
        assertThat(raw(bytes("612f62"))).isEqualTo("1!4!YS9i");
        assertThat(raw("abc".getBytes(StandardCharsets.US_ASCII))).isEqualTo("1!4!YWJj");
    }
}
