package io.tablestream.protocol.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.http.servlet.JavalinServletContextKt;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QueryParametersTest {
    /** Queries with every kind of escape the two readings may differ on. */
    private static final List<String> QUERIES = List.of(
            "$select=Name,Age&$format=json",
            "$select=%zz", "$select=%", "$select=%4", "$select=a%", "$select=%+f", "$select=%-1", "$select=%C3%A9",
            "$select=%C3", "$select=%E2%82", "$select=a+b%2Bc", "$select=%00",
            "$select=%zz&$select=ok", "$select=ok&$select=%zz", "$select", "$select=", "=x&$select=y",
            "a=1&&$select=2&", "&", "&&", "$sel%65ct=escaped+name", "$sel%zzct=x&$select=y", "%24select=%24",
            "+$select=x", "$select+=x", "$select=a=b", "$top=5&$top=%2", "sig=abc%2Bdef%3D&se=2026-01-01T00%3A00%3A00Z");
    private static final List<String> CHARSETS = java.util.Arrays.asList(null, "UTF-8", "utf-8", "ISO-8859-1", "bogus",
            "", "UTF-16");

    /** Every name Javalin's parse or ours finds in {@code query}, and a few neither does. */
    private static Set<String> namesIn(String query, String charset) {
        Set<String> names = new LinkedHashSet<>(List.of("$select", "$format", "$top", "sig", "se", "x", ""));
        for (String name : JavalinServletContextKt.splitKeyValueStringAndGroupByKey(query, charset).keySet()) {
            if (name != null) {
                names.add(name);
            }
        }
        names.addAll(QueryParameters.parse(query).decoded().keySet());
        return names;
    }

    @Test
    void theHandlersReadEveryParameterAsJavalinDoesWhateverTheEscapesAndTheCharset() {
        List<String> compared = new ArrayList<>();
        for (String query : QUERIES) {
            for (String charset : CHARSETS) {
                String javalinCharset = charset == null ? "UTF-8" : charset;
                Map<String, List<String>> javalin = JavalinServletContextKt.splitKeyValueStringAndGroupByKey(query,
                        javalinCharset);
                QueryParameters ours = QueryParameters.parse(query, () -> charset);
                for (String name : namesIn(query, javalinCharset)) {
                    List<String> values = javalin.get(name);
                    String expected = values == null || values.isEmpty() ? null : values.get(0);
                    assertThat(ours.first(name)).as("%s in '%s' read in %s", name, query, charset).isEqualTo(expected);
                    compared.add(name);
                }
            }
        }
        assertThat(compared).hasSizeGreaterThan(QUERIES.size() * CHARSETS.size());
    }

    @ParameterizedTest(name = "{0} -> handlers [{1}], signatures [{2}]")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
        // query                  | what a handler reads of $select | what a signature reads of it
        "$select=a%20b             | a b                             | a b",
        "$select=a+b               | a b                             | a b",
        "$select=%zz               | NULL                            | %zz",
        "$select=%4                | NULL                            | %4",
        "$select=%                 | NULL                            | %",
        "$select=%zz&$select=ok    | ok                              | %zz",
        "$select                   | ''                              | ''",
    })
    void aMalformedEscapeIsAbsentForTheHandlersAndKeptAsSentForTheSignature(String query, String handlers,
                                                                            String signatures) {
        QueryParameters parameters = QueryParameters.parse(query);
        assertThat(parameters.first("$select")).isEqualTo(handlers);
        assertThat(parameters.decoded().get("$select").get(0)).isEqualTo(signatures);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ISO-8859-1", "bogus"})
    void theCharsetIsAskedOnceAndOnlyWhenAHandlerReads(String charset) {
        AtomicInteger asked = new AtomicInteger();
        QueryParameters parameters = QueryParameters.parse("$select=%E9&$top=1", () -> {
            asked.incrementAndGet();
            return charset;
        });
        assertThat(parameters.decoded()).containsEntry("$select", List.of("\uFFFD"));
        assertThat(asked).hasValue(0);
        String select = parameters.first("$select");
        String top = parameters.first("$top");
        assertThat(asked).hasValue(1);
        if (charset.equals("bogus")) {
            assertThat(select).isNull(); // Javalin decodes nothing in a charset it does not know
            assertThat(top).isNull();
        } else {
            assertThat(select).isEqualTo("\u00e9");
            assertThat(top).isEqualTo("1");
        }
    }

    @Test
    void theSignaturesReadEveryPairDecodedInArrivalOrderSkippingEmptyOnes() {
        Map<String, List<String>> decoded = QueryParameters.parse("b=2&&a=1&b=3&c&=v&").decoded();
        assertThat(decoded.keySet()).containsExactly("b", "a", "c", "");
        assertThat(decoded).containsEntry("b", List.of("2", "3")).containsEntry("c", List.of(""))
                .containsEntry("", List.of("v"));
        assertThat(QueryParameters.parse(null).decoded()).isEmpty();
        assertThat(QueryParameters.parse("").first("a")).isNull();
    }

    @Test
    void percentDecodingMatchesAByteByByteDecoderOnRandomText() {
        java.util.Random random = new java.util.Random(11);
        String alphabet = "%+aZ09-_.~";
        String hex = "0123456789abcdefABCDEFgz";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder s = new StringBuilder();
            for (int i = random.nextInt(12); i > 0; i--) {
                s.append(random.nextInt(3) == 0 ? hex.charAt(random.nextInt(hex.length()))
                        : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String text = s.toString();
            for (boolean plusIsSpace : new boolean[] {true, false}) {
                assertThat(QueryParameters.percentDecode(text, plusIsSpace)).as(text)
                        .isEqualTo(byteByByte(text, plusIsSpace));
            }
        }
    }

    /** The reference: every well-formed escape's byte collected, each run decoded as UTF-8, anything else kept. */
    private static String byteByByte(String s, boolean plusIsSpace) {
        StringBuilder out = new StringBuilder();
        java.io.ByteArrayOutputStream run = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && Character.digit(s.charAt(i + 1), 16) >= 0
                    && Character.digit(s.charAt(i + 2), 16) >= 0) {
                run.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
                continue;
            }
            out.append(run.toString(java.nio.charset.StandardCharsets.UTF_8));
            run.reset();
            out.append(c == '+' && plusIsSpace ? ' ' : c);
        }
        return out.append(run.toString(java.nio.charset.StandardCharsets.UTF_8)).toString();
    }
}
