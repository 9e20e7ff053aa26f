package io.tablestream.protocol.xml;

import static io.tablestream.protocol.xml.XmlBodies.BILLION_LAUGHS;
import static io.tablestream.protocol.xml.XmlBodies.EXTERNAL_FILE_ENTITY;
import static io.tablestream.protocol.xml.XmlBodies.PROLOG;
import static io.tablestream.protocol.xml.XmlBodies.assertRejected;
import static io.tablestream.protocol.xml.XmlBodies.text;
import static io.tablestream.protocol.xml.XmlBodies.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.CorsRule;
import io.tablestream.core.model.CorsRule.Method;
import io.tablestream.core.model.LoggingSettings;
import io.tablestream.core.model.MetricsSettings;
import io.tablestream.core.model.RetentionPolicy;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.ServicePropertiesUpdate;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ServicePropertiesXmlTest {
    private static final String LOGGING_OFF = "<Logging><Version>1.0</Version><Delete>false</Delete><Read>false</Read>"
            + "<Write>false</Write><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>";
    private static final String RULE = "<CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods>"
            + "<AllowedHeaders></AllowedHeaders><ExposedHeaders></ExposedHeaders><MaxAgeInSeconds>0</MaxAgeInSeconds></CorsRule>";

    /** The values of the SDK's own service-properties test (recording TableServiceClientTest.setGetProperties). */
    private static final ServiceProperties SDK_TEST_PROPERTIES = ServiceProperties.of(
            LoggingSettings.of("1.0", true, false, false, RetentionPolicy.ofDays(5)),
            MetricsSettings.enabled("1.0", true, RetentionPolicy.ofDays(5)),
            MetricsSettings.enabled("1.0", true, RetentionPolicy.ofDays(5)),
            List.of(CorsRule.of(List.of("*"), List.of(Method.GET, Method.PUT, Method.HEAD), List.of("x-ms-version"),
                    List.of("x-ms-client-request-id"), 10)));

    private static ServicePropertiesUpdate parse(String xml) {
        return ServicePropertiesXml.parse(utf8(xml));
    }

    private static String doc(String content) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties>" + content
                + "</StorageServiceProperties>";
    }

    // --- writing: golden bytes ---

    @Test
    void writesPropertiesExactlyAsTheServiceDoes() {
        // Azure's Get response for these values, byte for byte (SDK recording TableServiceClientTest.setGetProperties):
        // note Read/Write/Delete and AllowedMethods-first, unlike the REST reference's samples.
        assertThat(text(ServicePropertiesXml.write(SDK_TEST_PROPERTIES))).isEqualTo(PROLOG
                + "<StorageServiceProperties><Logging><Version>1.0</Version><Read>true</Read><Write>false</Write>"
                + "<Delete>false</Delete><RetentionPolicy><Enabled>true</Enabled><Days>5</Days></RetentionPolicy>"
                + "</Logging><HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs>"
                + "<RetentionPolicy><Enabled>true</Enabled><Days>5</Days></RetentionPolicy></HourMetrics>"
                + "<MinuteMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs>"
                + "<RetentionPolicy><Enabled>true</Enabled><Days>5</Days></RetentionPolicy></MinuteMetrics>"
                + "<Cors><CorsRule><AllowedMethods>GET,PUT,HEAD</AllowedMethods><AllowedOrigins>*</AllowedOrigins>"
                + "<AllowedHeaders>x-ms-version</AllowedHeaders><ExposedHeaders>x-ms-client-request-id</ExposedHeaders>"
                + "<MaxAgeInSeconds>10</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>");
    }

    @Test
    void writesTheDefaultsOfAnAccountThatNeverSetThem() {
        assertThat(text(ServicePropertiesXml.write(ServiceProperties.DEFAULT))).isEqualTo(PROLOG
                + "<StorageServiceProperties><Logging><Version>1.0</Version><Read>false</Read><Write>false</Write>"
                + "<Delete>false</Delete><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>"
                + "<HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs>"
                + "<RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></HourMetrics>"
                + "<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled>"
                + "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>"
                + "<Cors /></StorageServiceProperties>");
    }

    @Test
    void writesAnEmptyHeaderListAsAnEmptyElement() {
        ServiceProperties p = ServiceProperties.of(LoggingSettings.DEFAULT, MetricsSettings.DEFAULT_HOUR,
                MetricsSettings.DEFAULT_MINUTE,
                List.of(CorsRule.of(List.of("http://a.example", "http://b.example"), List.of(Method.MERGE),
                        List.of(), List.of(), 0)));
        assertThat(text(ServicePropertiesXml.write(p))).contains("<Cors><CorsRule><AllowedMethods>MERGE</AllowedMethods>"
                + "<AllowedOrigins>http://a.example,http://b.example</AllowedOrigins><AllowedHeaders />"
                + "<ExposedHeaders /><MaxAgeInSeconds>0</MaxAgeInSeconds></CorsRule></Cors>");
    }

    // --- reading ---

    @Test
    void readsTheBodyTheJavaSdkSends() {
        // As azure-data-tables sent it to Azure (same recording): docs' element order, single-quoted declaration.
        String sdkBody = "<?xml version='1.0' encoding='UTF-8'?><StorageServiceProperties><Logging><Version>1.0</Version>"
                + "<Delete>false</Delete><Read>true</Read><Write>false</Write><RetentionPolicy><Enabled>true</Enabled>"
                + "<Days>5</Days></RetentionPolicy></Logging><HourMetrics><Version>1.0</Version><Enabled>true</Enabled>"
                + "<IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>5</Days></RetentionPolicy>"
                + "</HourMetrics><MinuteMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs>"
                + "<RetentionPolicy><Enabled>true</Enabled><Days>5</Days></RetentionPolicy></MinuteMetrics><Cors><CorsRule>"
                + "<AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET,PUT,HEAD</AllowedMethods>"
                + "<AllowedHeaders>x-ms-version</AllowedHeaders><ExposedHeaders>x-ms-client-request-id</ExposedHeaders>"
                + "<MaxAgeInSeconds>10</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>";
        assertThat(ServicePropertiesXml.parse(utf8(sdkBody)))
                .isEqualTo(ServicePropertiesUpdate.replacingAll(SDK_TEST_PROPERTIES));
    }

    @Test
    void readsTheReferenceSampleWithWhiteSpaceAndSpacedLists() {
        String sample = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<StorageServiceProperties>\n"
                + "    <Logging>\n        <Version>1.0</Version>\n        <Delete>true</Delete>\n"
                + "        <Read>false</Read>\n        <Write>true</Write>\n        <RetentionPolicy>\n"
                + "            <Enabled>true</Enabled>\n            <Days>7</Days>\n        </RetentionPolicy>\n"
                + "    </Logging>\n    <HourMetrics>\n        <Version>1.0</Version>\n        <Enabled>true</Enabled>\n"
                + "        <IncludeAPIs>false</IncludeAPIs>\n        <RetentionPolicy>\n            <Enabled>true</Enabled>\n"
                + "            <Days>7</Days>\n        </RetentionPolicy>\n    </HourMetrics>\n"
                + "    <Cors>\n        <CorsRule>\n"
                + "            <AllowedOrigins> http://www.fabrikam.com,http://www.contoso.com</AllowedOrigins>\n"
                + "            <AllowedMethods>GET,PUT</AllowedMethods>\n            <MaxAgeInSeconds>500</MaxAgeInSeconds>\n"
                + "            <ExposedHeaders>x-ms-meta-data*,x-ms-meta-customheader</ExposedHeaders>\n"
                + "            <AllowedHeaders>x-ms-meta-target*, x-ms-meta-customheader</AllowedHeaders>\n"
                + "        </CorsRule>\n    </Cors>\n</StorageServiceProperties>\n";
        ServicePropertiesUpdate u = parse(sample);
        assertThat(u.logging()).contains(LoggingSettings.of("1.0", false, true, true, RetentionPolicy.ofDays(7)));
        assertThat(u.hourMetrics()).contains(MetricsSettings.enabled("1.0", false, RetentionPolicy.ofDays(7)));
        assertThat(u.minuteMetrics()).isEmpty();
        assertThat(u.cors()).contains(List.of(CorsRule.of(List.of("http://www.fabrikam.com", "http://www.contoso.com"),
                List.of(Method.GET, Method.PUT), List.of("x-ms-meta-target*", "x-ms-meta-customheader"),
                List.of("x-ms-meta-data*", "x-ms-meta-customheader"), 500)));
    }

    @Test
    void readsAGroupLeftOutAsKeepingItsSettings() {
        ServicePropertiesUpdate u = parse(doc("<Cors>" + RULE + "</Cors>"));
        assertThat(u.logging()).isEmpty();
        assertThat(u.hourMetrics()).isEmpty();
        assertThat(u.minuteMetrics()).isEmpty();
        assertThat(u.cors()).hasValueSatisfying(rules -> assertThat(rules).hasSize(1));
    }

    @Test
    void readsAnEmptyCorsElementAsRemovingEveryRule() {
        assertThat(parse(doc("<Cors />")).cors()).contains(List.of());
        assertThat(parse(doc("<Cors>\n</Cors>")).cors()).contains(List.of());
        assertThat(parse(doc("")).cors()).isEmpty();
    }

    @Test
    void mergesAPartialDocumentIntoTheStoredProperties() {
        ServiceProperties stored = SDK_TEST_PROPERTIES;
        ServiceProperties merged = ServiceProperties.merge(stored, parse(doc(LOGGING_OFF + "<Cors />")));
        assertThat(merged).isEqualTo(ServiceProperties.of(LoggingSettings.DEFAULT, stored.hourMetrics(),
                stored.minuteMetrics(), List.of()));
    }

    @Test
    void readsDisabledMetricsDroppingIncludeApis() {
        ServicePropertiesUpdate u = parse(doc("<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled>"
                + "<IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>"));
        assertThat(u.minuteMetrics()).contains(MetricsSettings.disabled("1.0", RetentionPolicy.disabled()));
    }

    @Test
    void readsChildrenInAnyOrderBooleanDigitsAndIgnoresUnknownElements() {
        ServicePropertiesUpdate u = parse(doc("<DefaultServiceVersion>2020-12-06</DefaultServiceVersion>"
                + "<HourMetrics><RetentionPolicy><Days> 30 </Days><Enabled>1</Enabled></RetentionPolicy>"
                + "<IncludeAPIs>0</IncludeAPIs><Enabled> true </Enabled><Version>1.0</Version></HourMetrics>"));
        assertThat(u.hourMetrics()).contains(MetricsSettings.enabled("1.0", false, RetentionPolicy.ofDays(30)));
    }

    @Test
    void readsLoggingVersionTwo() {
        assertThat(parse(doc(LOGGING_OFF.replace("1.0", "2.0"))).logging().map(LoggingSettings::version))
                .contains("2.0");
    }

    @Test
    void readsEveryMethodARuleMayAllowInAnyCase() {
        String rule = RULE.replace("<AllowedMethods>GET</AllowedMethods>",
                "<AllowedMethods>connect,DELETE,GET,HEAD,MERGE,OPTIONS,PATCH,POST,PUT,trace</AllowedMethods>");
        assertThat(parse(doc("<Cors>" + rule + "</Cors>")).cors().orElseThrow().get(0).allowedMethods())
                .containsExactly(Method.values());
    }

    @Test
    void roundTripsPropertiesThroughItsOwnOutput() {
        for (ServiceProperties p : List.of(ServiceProperties.DEFAULT, SDK_TEST_PROPERTIES, fiveRules())) {
            assertThat(ServicePropertiesXml.parse(ServicePropertiesXml.write(p)))
                    .isEqualTo(ServicePropertiesUpdate.replacingAll(p));
        }
    }

    private static ServiceProperties fiveRules() {
        List<CorsRule> rules = IntStream.range(0, 5).mapToObj(i -> CorsRule.of(List.of("https://o" + i + ".example"),
                List.of(Method.GET, Method.DELETE), List.of("x-ms-meta*", "content-type"), List.of("x-ms-*"), i * 100))
                .collect(Collectors.toList());
        return ServiceProperties.of(LoggingSettings.of("2.0", true, true, true, RetentionPolicy.ofDays(365)),
                MetricsSettings.disabled("1.0", RetentionPolicy.ofDays(1)), MetricsSettings.DEFAULT_HOUR, rules);
    }

    // --- rejections ---

    private static String rule(String origins, String methods, String allowed, String exposed, String maxAge) {
        return "<CorsRule><AllowedOrigins>" + origins + "</AllowedOrigins><AllowedMethods>" + methods
                + "</AllowedMethods><AllowedHeaders>" + allowed + "</AllowedHeaders><ExposedHeaders>" + exposed
                + "</ExposedHeaders><MaxAgeInSeconds>" + maxAge + "</MaxAgeInSeconds></CorsRule>";
    }

    private static String metrics(String enabled, String includeApis, String retention) {
        return "<HourMetrics><Version>1.0</Version><Enabled>" + enabled + "</Enabled>" + includeApis
                + "<RetentionPolicy>" + retention + "</RetentionPolicy></HourMetrics>";
    }

    static Stream<Arguments> rejections() {
        String bigOrigins = IntStream.range(0, 30).mapToObj(i -> "https://origin-number-" + i + ".example.com")
                .collect(Collectors.joining(","));
        return Stream.of(
                Arguments.of("an empty body", "", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("malformed XML", "<StorageServiceProperties><Cors>", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("another root element", "<SignedIdentifiers />", ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("two Logging groups", doc(LOGGING_OFF + LOGGING_OFF), ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("logging without Version", doc(LOGGING_OFF.replace("<Version>1.0</Version>", "")),
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("logging without Delete", doc(LOGGING_OFF.replace("<Delete>false</Delete>", "")),
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("logging without RetentionPolicy", doc(LOGGING_OFF.replaceAll("<RetentionPolicy>.*</RetentionPolicy>", "")),
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("metrics without Enabled", doc("<HourMetrics><Version>1.0</Version><RetentionPolicy>"
                        + "<Enabled>false</Enabled></RetentionPolicy></HourMetrics>"), ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("enabled metrics without IncludeAPIs", doc(metrics("true", "", "<Enabled>false</Enabled>")),
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("enabled retention without Days", doc(metrics("false", "", "<Enabled>true</Enabled>")),
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("Days in a disabled retention policy",
                        doc(metrics("false", "", "<Enabled>false</Enabled><Days>7</Days>")), ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("retention of 0 days", doc(metrics("false", "", "<Enabled>true</Enabled><Days>0</Days>")),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("retention of 366 days", doc(metrics("false", "", "<Enabled>true</Enabled><Days>366</Days>")),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("retention of 'seven' days",
                        doc(metrics("false", "", "<Enabled>true</Enabled><Days>seven</Days>")), ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("a boolean 'yes'", doc(metrics("yes", "", "<Enabled>false</Enabled>")),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("an IncludeAPIs of 'maybe'", doc(metrics("true", "<IncludeAPIs>maybe</IncludeAPIs>",
                        "<Enabled>false</Enabled>")), ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("metrics version 2.0", doc(metrics("false", "", "<Enabled>false</Enabled>")
                        .replace("1.0", "2.0")), ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("logging version 9.9", doc(LOGGING_OFF.replace("1.0", "9.9")), ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("six CORS rules", doc("<Cors>" + RULE.repeat(6) + "</Cors>"), ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("a rule without ExposedHeaders", doc("<Cors>" + RULE.replace("<ExposedHeaders></ExposedHeaders>", "")
                        + "</Cors>"), ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("a rule without MaxAgeInSeconds", doc("<Cors>" + RULE.replace("<MaxAgeInSeconds>0</MaxAgeInSeconds>", "")
                        + "</Cors>"), ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("a negative MaxAgeInSeconds", doc("<Cors>" + rule("*", "GET", "", "", "-1") + "</Cors>"),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("a MaxAgeInSeconds past 2^31-1", doc("<Cors>" + rule("*", "GET", "", "", "2147483648") + "</Cors>"),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("a MaxAgeInSeconds of 'ten'", doc("<Cors>" + rule("*", "GET", "", "", "ten") + "</Cors>"),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("an unknown method", doc("<Cors>" + rule("*", "GET,FETCH", "", "", "1") + "</Cors>"),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("no methods", doc("<Cors>" + rule("*", "", "", "", "1") + "</Cors>"),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("no origins", doc("<Cors>" + rule("", "GET", "", "", "1") + "</Cors>"),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("an origin of 257 characters", doc("<Cors>" + rule("https://" + "a".repeat(249), "GET", "", "", "1")
                        + "</Cors>"), ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("three prefixed headers", doc("<Cors>" + rule("*", "GET", "a*,b*,c*", "", "1") + "</Cors>"),
                        ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("CORS settings over 2 KiB", doc("<Cors>" + rule(bigOrigins, "GET", "", "", "1")
                        + rule(bigOrigins, "GET", "", "", "1") + "</Cors>"), ErrorCode.INVALID_XML_NODE_VALUE),
                Arguments.of("an external file entity (XXE)", EXTERNAL_FILE_ENTITY + doc("<Cors>"
                        + rule("&xxe;", "GET", "", "", "1") + "</Cors>").replaceFirst("<\\?xml[^>]*>", ""),
                        ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("billion laughs", BILLION_LAUGHS + doc("<Cors>" + rule("&lol9;", "GET", "", "", "1")
                        + "</Cors>").replaceFirst("<\\?xml[^>]*>", ""), ErrorCode.INVALID_XML_DOCUMENT),
                Arguments.of("a body over 64 KiB", doc("<!--" + "x".repeat(64 * 1024) + "-->"),
                        ErrorCode.REQUEST_BODY_TOO_LARGE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    @Timeout(5)
    void rejectsABodyTheServiceRejects(String what, String xml, ErrorCode code) {
        assertRejected(() -> parse(xml), code);
    }

    @Test
    void acceptsTheLargestValuesTheLimitsAllow() {
        String origins = IntStream.range(0, 64).mapToObj(i -> "http://o" + i + ".ex").collect(Collectors.joining(","));
        ServicePropertiesUpdate u = parse(doc("<Cors>" + rule(origins, "GET", "a*,b*,c", "x*,y*", "2147483647")
                + "</Cors>" + metrics("false", "", "<Enabled>true</Enabled><Days>365</Days>")));
        assertThat(u.cors().orElseThrow().get(0).allowedOrigins()).hasSize(64);
        assertThat(u.cors().orElseThrow().get(0).maxAgeInSeconds()).isEqualTo(Integer.MAX_VALUE);
        assertThat(u.hourMetrics().map(MetricsSettings::retentionPolicy)).contains(RetentionPolicy.ofDays(365));
    }
}
