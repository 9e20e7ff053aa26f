package io.tablestream.protocol.xml;

import static io.tablestream.protocol.xml.XmlBodies.BILLION_LAUGHS;
import static io.tablestream.protocol.xml.XmlBodies.EXTERNAL_DTD;
import static io.tablestream.protocol.xml.XmlBodies.EXTERNAL_FILE_ENTITY;
import static io.tablestream.protocol.xml.XmlBodies.EXTERNAL_PARAMETER_ENTITY;
import static io.tablestream.protocol.xml.XmlBodies.PROLOG;
import static io.tablestream.protocol.xml.XmlBodies.assertRejected;
import static io.tablestream.protocol.xml.XmlBodies.text;
import static io.tablestream.protocol.xml.XmlBodies.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TablePermission;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SignedIdentifiersXmlTest {
    private static final EdmDateTime DEC_2021 = at("2021-12-12T00:00:00Z");
    private static final EdmDateTime DEC_2022 = at("2022-12-12T00:00:00Z");

    private static EdmDateTime at(String iso) {
        return EdmDateTime.of(Instant.parse(iso));
    }

    private static String policy(String id, String accessPolicyContent) {
        return "<SignedIdentifier><Id>" + id + "</Id><AccessPolicy>" + accessPolicyContent
                + "</AccessPolicy></SignedIdentifier>";
    }

    private static List<AccessPolicy> parse(String xml) {
        return SignedIdentifiersXml.parse(utf8(xml));
    }

    // --- writing: golden bytes ---

    @Test
    void writesTwoPoliciesExactlyAsTheServiceDoes() {
        // The body Azure returned for these two policies (SDK recording TableAsyncClientTest.setAndListMultipleAccessPolicies).
        List<AccessPolicy> policies = List.of(
                AccessPolicy.of("testPolicy1", DEC_2021, DEC_2022, TablePermission.parse("r")),
                AccessPolicy.of("testPolicy2", DEC_2021, DEC_2022, TablePermission.parse("r")));
        assertThat(text(SignedIdentifiersXml.write(policies))).isEqualTo(PROLOG
                + "<SignedIdentifiers><SignedIdentifier><Id>testPolicy1</Id><AccessPolicy>"
                + "<Start>2021-12-12T00:00:00.0000000Z</Start><Expiry>2022-12-12T00:00:00.0000000Z</Expiry>"
                + "<Permission>r</Permission></AccessPolicy></SignedIdentifier><SignedIdentifier><Id>testPolicy2</Id>"
                + "<AccessPolicy><Start>2021-12-12T00:00:00.0000000Z</Start><Expiry>2022-12-12T00:00:00.0000000Z</Expiry>"
                + "<Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>");
    }

    @Test
    void startsTheBodyWithAUtf8ByteOrderMark() {
        byte[] body = SignedIdentifiersXml.write(List.of());
        assertThat(body).startsWith((byte) 0xEF, (byte) 0xBB, (byte) 0xBF, (byte) '<');
    }

    @Test
    void writesNoPoliciesAsAnEmptyElement() {
        assertThat(text(SignedIdentifiersXml.write(List.of()))).isEqualTo(PROLOG + "<SignedIdentifiers />");
    }

    @Test
    void leavesOutTheDatesAndPermissionsAPolicyDoesNotHave() {
        List<AccessPolicy> policies = List.of(
                AccessPolicy.of("onlyExpiry", null, at("2030-01-02T03:04:05.1234567Z"), TablePermission.parse("dura")),
                AccessPolicy.of("nothing", null, null, Set.of()));
        assertThat(text(SignedIdentifiersXml.write(policies))).isEqualTo(PROLOG + "<SignedIdentifiers>"
                + "<SignedIdentifier><Id>onlyExpiry</Id><AccessPolicy><Expiry>2030-01-02T03:04:05.1234567Z</Expiry>"
                + "<Permission>raud</Permission></AccessPolicy></SignedIdentifier>"
                + "<SignedIdentifier><Id>nothing</Id><AccessPolicy /></SignedIdentifier></SignedIdentifiers>");
    }

    @Test
    void escapesMarkupCharactersInAnId() {
        List<AccessPolicy> policies = List.of(AccessPolicy.of("a<b>&c\"d'", null, null, Set.of()));
        assertThat(text(SignedIdentifiersXml.write(policies)))
                .contains("<Id>a&lt;b&gt;&amp;c\"d'</Id>");
        assertThat(SignedIdentifiersXml.parse(SignedIdentifiersXml.write(policies))).isEqualTo(policies);
    }

    // --- reading ---

    @Test
    void readsTheBodyTheJavaSdkSends() {
        // As azure-data-tables sends it (SDK recording): single-quoted declaration, no BOM, no white space.
        String sdkBody = "<?xml version='1.0' encoding='UTF-8'?><SignedIdentifiers>"
                + policy("testPolicy1", "<Start>2021-12-12T00:00:00Z</Start><Expiry>2022-12-12T00:00:00Z</Expiry>"
                        + "<Permission>r</Permission>")
                + policy("testPolicy2", "<Start>2021-12-12T00:00:00Z</Start><Expiry>2022-12-12T00:00:00Z</Expiry>"
                        + "<Permission>r</Permission>")
                + "</SignedIdentifiers>";
        assertThat(parse(sdkBody)).containsExactly(
                AccessPolicy.of("testPolicy1", DEC_2021, DEC_2022, Set.of(TablePermission.READ)),
                AccessPolicy.of("testPolicy2", DEC_2021, DEC_2022, Set.of(TablePermission.READ)));
    }

    @Test
    void readsTheReferenceSampleWithWhiteSpaceAndSevenDigitFractions() {
        String sample = "<?xml version=\"1.0\" encoding=\"utf-8\"?>  \n<SignedIdentifiers>  \n  <SignedIdentifier>   \n"
                + "    <Id>MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=</Id>  \n    <AccessPolicy>  \n"
                + "      <Start>2013-11-26T08:49:37.0000000Z</Start>  \n"
                + "      <Expiry>2013-11-27T08:49:37.0000000Z</Expiry>  \n"
                + "      <Permission>raud</Permission>  \n    </AccessPolicy>  \n  </SignedIdentifier>  \n"
                + "</SignedIdentifiers>  \n";
        assertThat(parse(sample)).containsExactly(AccessPolicy.of("MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=",
                at("2013-11-26T08:49:37Z"), at("2013-11-27T08:49:37Z"), TablePermission.parse("raud")));
    }

    @Test
    void readsABodyThatStartsWithAByteOrderMark() {
        List<AccessPolicy> policies = List.of(AccessPolicy.of("p", DEC_2021, null, TablePermission.parse("ra")));
        assertThat(SignedIdentifiersXml.parse(SignedIdentifiersXml.write(policies))).isEqualTo(policies);
    }

    static Stream<Arguments> dateForms() {
        return Stream.of(
                Arguments.of("2013-11-26", "2013-11-26T00:00:00Z"),
                Arguments.of("2013-11-26T08:49Z", "2013-11-26T08:49:00Z"),
                Arguments.of("2013-11-26T08:49:37Z", "2013-11-26T08:49:37Z"),
                Arguments.of("2013-11-26T08:49:37.123456Z", "2013-11-26T08:49:37.123456Z"),
                Arguments.of("2013-11-26T08:49:37.1234567Z", "2013-11-26T08:49:37.1234567Z"),
                // OffsetDateTime (which the Java SDK formats) may carry nanoseconds: truncated to ticks.
                Arguments.of("2013-11-26T08:49:37.123456789Z", "2013-11-26T08:49:37.1234567Z"),
                Arguments.of("2013-11-26T10:49:37+02:00", "2013-11-26T08:49:37Z"),
                Arguments.of("  2013-11-26T08:49:37Z \n", "2013-11-26T08:49:37Z"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dateForms")
    void readsEachIso8601FormTheServiceAccepts(String written, String instant) {
        List<AccessPolicy> read = parse("<SignedIdentifiers>" + policy("p", "<Start>" + written + "</Start>")
                + "</SignedIdentifiers>");
        assertThat(read.get(0).start()).isEqualTo(at(instant));
    }

    @Test
    void readsEmptyAndMissingPolicyPartsAsAbsent() {
        List<AccessPolicy> read = parse("<SignedIdentifiers>"
                + policy("empty", "<Start></Start><Expiry/><Permission></Permission>")
                + "<SignedIdentifier><Id>bare</Id></SignedIdentifier>"
                + "</SignedIdentifiers>");
        assertThat(read).containsExactly(AccessPolicy.of("empty", null, null, Set.of()),
                AccessPolicy.of("bare", null, null, Set.of()));
    }

    @Test
    void readsChildrenInAnyOrderAndIgnoresUnknownElementsAndAttributes() {
        List<AccessPolicy> read = parse("<SignedIdentifiers x='1'><Unknown><Deep/></Unknown><SignedIdentifier>"
                + "<AccessPolicy><Permission>ud</Permission><Note>hi</Note><Start>2021-12-12T00:00:00Z</Start></AccessPolicy>"
                + "<!-- a comment --><Id>late</Id></SignedIdentifier></SignedIdentifiers>");
        assertThat(read).containsExactly(AccessPolicy.of("late", DEC_2021, null, TablePermission.parse("ud")));
    }

    @Test
    void readsAnEmptyBodyOrEmptyListAsNoPolicies() {
        assertThat(SignedIdentifiersXml.parse(new byte[0])).isEmpty();
        assertThat(parse("  \r\n")).isEmpty();
        assertThat(parse("<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers />")).isEmpty();
    }

    @Test
    void readsFivePolicies() {
        StringBuilder sb = new StringBuilder("<SignedIdentifiers>");
        for (int i = 0; i < 5; i++) {
            sb.append(policy("p" + i, "<Permission>r</Permission>"));
        }
        assertThat(parse(sb.append("</SignedIdentifiers>").toString())).hasSize(5);
    }

    @Test
    void readsCharacterReferencesAndCdata() {
        List<AccessPolicy> read = parse("<SignedIdentifiers><SignedIdentifier><Id>a&amp;b&#x41;<![CDATA[<c>]]></Id>"
                + "</SignedIdentifier></SignedIdentifiers>");
        assertThat(read.get(0).id()).isEqualTo("a&bA<c>");
    }

    @Test
    void readsAUtf16Body() {
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><SignedIdentifiers>" + policy("ünï", "")
                + "</SignedIdentifiers>";
        assertThat(SignedIdentifiersXml.parse(xml.getBytes(StandardCharsets.UTF_16)).get(0).id()).isEqualTo("ünï");
    }

    @Test
    void roundTripsPoliciesThroughItsOwnOutput() {
        List<AccessPolicy> policies = List.of(
                AccessPolicy.of("a", at("2024-02-29T23:59:59.9999999Z"), at("2099-01-01T00:00:00Z"),
                        TablePermission.parse("raud")),
                AccessPolicy.of("b", null, at("1601-01-01T00:00:00Z"), TablePermission.parse("d")),
                AccessPolicy.of("x".repeat(64), DEC_2021, null, Set.of()));
        assertThat(SignedIdentifiersXml.parse(SignedIdentifiersXml.write(policies))).isEqualTo(policies);
    }

    @Test
    void readsFromAStream() {
        byte[] body = SignedIdentifiersXml.write(List.of(AccessPolicy.of("s", null, null, Set.of())));
        assertThat(SignedIdentifiersXml.parse(new ByteArrayInputStream(body))).hasSize(1);
    }

    // --- rejections ---

    static Stream<Arguments> rejections() {
        String six = "<SignedIdentifiers>" + policy("1", "") + policy("2", "") + policy("3", "") + policy("4", "")
                + policy("5", "") + policy("6", "") + "</SignedIdentifiers>";
        return Stream.of(
                Arguments.of("not XML at all", "hello", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("an unclosed root", "<SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("mismatched tags", "<SignedIdentifiers></SignedIdentifier>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("another root element", "<StorageServiceProperties />", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("two root elements", "<SignedIdentifiers /><SignedIdentifiers />",
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("text after the root", "<SignedIdentifiers />trailing", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("six policies", six, ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("a policy without an id", "<SignedIdentifiers><SignedIdentifier><AccessPolicy />"
                        + "</SignedIdentifier></SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("a policy with two ids", "<SignedIdentifiers><SignedIdentifier><Id>a</Id><Id>b</Id>"
                        + "</SignedIdentifier></SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("an id used twice", "<SignedIdentifiers>" + policy("same", "") + policy("same", "")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("two Start elements", "<SignedIdentifiers>" + policy("p",
                        "<Start>2021-12-12</Start><Start>2021-12-13</Start>") + "</SignedIdentifiers>",
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("an id holding elements", "<SignedIdentifiers><SignedIdentifier><Id><x/></Id>"
                        + "</SignedIdentifier></SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("text mixed with elements", "<SignedIdentifiers>stray" + policy("p", "")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("a blob permission letter", "<SignedIdentifiers>" + policy("p", "<Permission>rw</Permission>")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("an upper-case permission", "<SignedIdentifiers>" + policy("p", "<Permission>R</Permission>")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("a repeated permission", "<SignedIdentifiers>" + policy("p", "<Permission>rr</Permission>")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("an id of 65 characters", "<SignedIdentifiers>" + policy("x".repeat(65), "")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("an empty id", "<SignedIdentifiers>" + policy("", "") + "</SignedIdentifiers>",
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("a start that is not a date", "<SignedIdentifiers>" + policy("p", "<Start>yesterday</Start>")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("month 13", "<SignedIdentifiers>" + policy("p", "<Expiry>2024-13-01T00:00:00Z</Expiry>")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("a date before 1601", "<SignedIdentifiers>" + policy("p", "<Expiry>1600-12-31</Expiry>")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("an undeclared entity", "<SignedIdentifiers>" + policy("&xxe;", "") + "</SignedIdentifiers>",
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("an internal entity", "<!DOCTYPE d [<!ENTITY e \"x\">]><SignedIdentifiers>"
                        + policy("&e;", "") + "</SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("an external file entity (XXE)", EXTERNAL_FILE_ENTITY + "<SignedIdentifiers>"
                        + policy("&xxe;", "") + "</SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("an external parameter entity", EXTERNAL_PARAMETER_ENTITY + "<SignedIdentifiers />",
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("an external DTD", EXTERNAL_DTD + "<SignedIdentifiers />", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("billion laughs", BILLION_LAUGHS + "<SignedIdentifiers>" + policy("&lol9;", "")
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("elements nested 17 deep", "<SignedIdentifiers>" + "<a>".repeat(16) + "</a>".repeat(16)
                        + "</SignedIdentifiers>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("a body over 64 KiB", "<SignedIdentifiers>" + " ".repeat(64 * 1024)
                        + "</SignedIdentifiers>", ErrorCode.REQUEST_BODY_TOO_LARGE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    @Timeout(5)
    void rejectsABodyTheServiceRejects(String what, String xml, ErrorCode code) {
        assertRejected(() -> parse(xml), code);
    }

    @Test
    void rejectsAnOversizedStreamWithoutReadingAllOfIt() {
        byte[] big = new byte[10 * 1024 * 1024];
        java.util.Arrays.fill(big, (byte) ' ');
        ByteArrayInputStream in = new ByteArrayInputStream(big);
        assertRejected(() -> SignedIdentifiersXml.parse(in), ErrorCode.REQUEST_BODY_TOO_LARGE);
        assertThat(in.available()).isGreaterThan(9 * 1024 * 1024);
    }

    static Stream<String> documentTypeDeclarations() {
        return Stream.of(BILLION_LAUGHS, EXTERNAL_FILE_ENTITY, EXTERNAL_PARAMETER_ENTITY, EXTERNAL_DTD,
                "<!DOCTYPE SignedIdentifiers>");
    }

    @ParameterizedTest
    @MethodSource("documentTypeDeclarations")
    @Timeout(5)
    void refusesAnyDocumentTypeDeclarationBeforeReadingAnEntity(String dtd) {
        assertRejected(() -> parse(dtd + "<SignedIdentifiers>" + policy("&lol9;&xxe;", "") + "</SignedIdentifiers>"),
                ErrorCode.INVALID_XML_DOCUMENT).hasMessageContaining("document type declaration");
    }

    @Test
    void neverExpandsAnEntityIntoTheResult() {
        // An XInclude element is just an unknown element to a StAX reader: ignored, never resolved.
        String xinclude = "<SignedIdentifiers xmlns:xi=\"http://www.w3.org/2001/XInclude\">"
                + "<xi:include href=\"file:///etc/passwd\" parse=\"text\"/></SignedIdentifiers>";
        assertThat(parse(xinclude)).isEmpty();
    }
}
