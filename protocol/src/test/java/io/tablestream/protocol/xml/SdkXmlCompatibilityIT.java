package io.tablestream.protocol.xml;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.EmulatorAccount;
import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableAccessPolicies;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableServiceCorsRule;
import com.azure.data.tables.models.TableServiceLogging;
import com.azure.data.tables.models.TableServiceMetrics;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableServiceRetentionPolicy;
import com.azure.data.tables.models.TableSignedIdentifier;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.CorsRule;
import io.tablestream.core.model.CorsRule.Method;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.LoggingSettings;
import io.tablestream.core.model.MetricsSettings;
import io.tablestream.core.model.RetentionPolicy;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.ServicePropertiesUpdate;
import io.tablestream.core.model.TablePermission;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The official Java SDK (azure-data-tables) against our XML, over real HTTP: a JDK HttpServer on
 * the loopback interface records what the SDK sends and answers with our writers' bytes.
 */
class SdkXmlCompatibilityIT {
    private static final String ACCOUNT = "devstoreaccount1";
    private static final String EMULATOR_KEY = EmulatorAccount.KEY;

    private record Recorded(String method, String pathAndQuery, String contentType, byte[] body) {
    }

    private record Canned(int status, byte[] body) {
    }

    private static final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private static volatile Canned answer = new Canned(500, new byte[0]);
    private static HttpServer server;
    private static TableServiceClient service;
    private static TableClient table;

    @BeforeAll
    static void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", SdkXmlCompatibilityIT::handle);
        server.start();
        String endpoint = "http://127.0.0.1:" + server.getAddress().getPort() + "/" + ACCOUNT;
        AzureNamedKeyCredential credential = new AzureNamedKeyCredential(ACCOUNT, EMULATOR_KEY);
        service = new TableServiceClientBuilder().endpoint(endpoint).credential(credential).buildClient();
        table = new TableClientBuilder().endpoint(endpoint).credential(credential).tableName("mytable").buildClient();
    }

    @AfterAll
    static void stopServer() {
        server.stop(0);
    }

    @BeforeEach
    void forgetRequests() {
        requests.clear();
    }

    private static void handle(HttpExchange ex) throws IOException {
        byte[] body;
        try (InputStream in = ex.getRequestBody()) {
            body = in.readAllBytes();
        }
        requests.add(new Recorded(ex.getRequestMethod(), ex.getRequestURI().toString(),
                ex.getRequestHeaders().getFirst("Content-Type"), body));
        Canned a = answer;
        ex.getResponseHeaders().add("x-ms-request-id", "00000000-0000-0000-0000-000000000000");
        ex.getResponseHeaders().add("x-ms-version", "2020-12-06");
        if (a.body.length == 0) {
            ex.sendResponseHeaders(a.status, -1);
        } else {
            ex.getResponseHeaders().add("Content-Type", "application/xml");
            ex.sendResponseHeaders(a.status, a.body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(a.body);
            }
        }
        ex.close();
    }

    private static Recorded onlyRequest() {
        assertThat(requests).hasSize(1);
        return requests.get(0);
    }

    private static EdmDateTime at(String iso) {
        return EdmDateTime.of(Instant.parse(iso));
    }

    // --- Table ACL ---

    @Test
    void weReadTheAccessPoliciesTheSdkSets() {
        answer = new Canned(204, new byte[0]);
        table.setAccessPolicies(List.of(
                new TableSignedIdentifier("full").setAccessPolicy(new TableAccessPolicy()
                        .setStartsOn(OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC))
                        .setExpiresOn(OffsetDateTime.of(2025, 6, 7, 8, 9, 10, 123456789, ZoneOffset.UTC))
                        .setPermissions("raud")),
                new TableSignedIdentifier("offset").setAccessPolicy(new TableAccessPolicy()
                        .setStartsOn(OffsetDateTime.of(2024, 1, 2, 5, 4, 0, 0, ZoneOffset.ofHours(2)))
                        .setPermissions("ud")),
                new TableSignedIdentifier("bare").setAccessPolicy(new TableAccessPolicy())));

        Recorded r = onlyRequest();
        assertThat(r.method()).isEqualTo("PUT");
        assertThat(r.pathAndQuery()).isEqualTo("/" + ACCOUNT + "/mytable?comp=acl");
        assertThat(r.contentType()).startsWith("application/xml");
        // The SDK sends whole seconds (it drops the fraction) and keeps the caller's offset.
        assertThat(SignedIdentifiersXml.parse(r.body())).containsExactly(
                AccessPolicy.of("full", at("2024-01-02T03:04:05Z"), at("2025-06-07T08:09:10Z"),
                        TablePermission.parse("raud")),
                AccessPolicy.of("offset", at("2024-01-02T03:04:00Z"), null, TablePermission.parse("ud")),
                AccessPolicy.of("bare", null, null, Set.of()));
    }

    @Test
    void weReadAnEmptyAccessPolicyListTheSdkSets() {
        answer = new Canned(204, new byte[0]);
        table.setAccessPolicies(List.of());
        assertThat(SignedIdentifiersXml.parse(onlyRequest().body())).isEmpty();
    }

    @Test
    void theSdkReadsTheAccessPoliciesWeWrite() {
        answer = new Canned(200, SignedIdentifiersXml.write(List.of(
                AccessPolicy.of("p1", at("2021-12-12T00:00:00Z"), at("2022-12-12T00:00:00.5Z"),
                        TablePermission.parse("dr")),
                AccessPolicy.of("p2", null, at("2030-01-01T00:00:00Z"), Set.of()),
                AccessPolicy.of("p3", null, null, Set.of()))));

        TableAccessPolicies read = table.getAccessPolicies();

        Recorded r = onlyRequest();
        assertThat(r.method()).isEqualTo("GET");
        assertThat(r.pathAndQuery()).isEqualTo("/" + ACCOUNT + "/mytable?comp=acl");
        List<TableSignedIdentifier> ids = read.getIdentifiers();
        assertThat(ids).extracting(TableSignedIdentifier::getId).containsExactly("p1", "p2", "p3");
        TableAccessPolicy p1 = ids.get(0).getAccessPolicy();
        assertThat(p1.getStartsOn()).isEqualTo(OffsetDateTime.of(2021, 12, 12, 0, 0, 0, 0, ZoneOffset.UTC));
        assertThat(p1.getExpiresOn()).isEqualTo(OffsetDateTime.of(2022, 12, 12, 0, 0, 0, 500_000_000, ZoneOffset.UTC));
        assertThat(p1.getPermissions()).isEqualTo("rd");
        TableAccessPolicy p2 = ids.get(1).getAccessPolicy();
        assertThat(p2.getStartsOn()).isNull();
        assertThat(p2.getExpiresOn()).isEqualTo(OffsetDateTime.of(2030, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
        assertThat(p2.getPermissions()).isNull();
        TableAccessPolicy p3 = ids.get(2).getAccessPolicy();
        assertThat(p3 == null || (p3.getStartsOn() == null && p3.getExpiresOn() == null && p3.getPermissions() == null))
                .as("an empty policy reads as no start, expiry or permissions").isTrue();
    }

    @Test
    void theSdkReadsAnEmptyAccessPolicyListWeWrite() {
        answer = new Canned(200, SignedIdentifiersXml.write(List.of()));
        // The SDK reports a list without SignedIdentifier elements as null, whoever wrote it.
        assertThat(table.getAccessPolicies().getIdentifiers()).isNullOrEmpty();
    }

    // --- Table service properties ---

    private static TableServiceRetentionPolicy days(int n) {
        return new TableServiceRetentionPolicy().setEnabled(true).setDaysToRetain(n);
    }

    @Test
    void weReadTheServicePropertiesTheSdkSets() {
        answer = new Canned(202, new byte[0]);
        service.setProperties(new TableServiceProperties()
                .setLogging(new TableServiceLogging().setAnalyticsVersion("1.0").setReadLogged(true)
                        .setWriteLogged(false).setDeleteLogged(true).setRetentionPolicy(days(5)))
                .setHourMetrics(new TableServiceMetrics().setVersion("1.0").setEnabled(true).setIncludeApis(true)
                        .setRetentionPolicy(days(6)))
                .setMinuteMetrics(new TableServiceMetrics().setVersion("1.0").setEnabled(false)
                        .setRetentionPolicy(new TableServiceRetentionPolicy().setEnabled(false)))
                .setCorsRules(List.of(
                        new TableServiceCorsRule().setAllowedOrigins("*").setAllowedMethods("GET,PUT,HEAD")
                                .setAllowedHeaders("x-ms-version").setExposedHeaders("x-ms-client-request-id")
                                .setMaxAgeInSeconds(10),
                        new TableServiceCorsRule().setAllowedOrigins("https://a.example,https://b.example")
                                .setAllowedMethods("MERGE").setAllowedHeaders("").setExposedHeaders("")
                                .setMaxAgeInSeconds(0))));

        Recorded r = onlyRequest();
        assertThat(r.method()).isEqualTo("PUT");
        assertThat(r.pathAndQuery()).isEqualTo("/" + ACCOUNT + "?restype=service&comp=properties");
        assertThat(ServicePropertiesXml.parse(r.body())).isEqualTo(ServicePropertiesUpdate.replacingAll(
                ServiceProperties.of(
                        LoggingSettings.of("1.0", true, false, true, RetentionPolicy.ofDays(5)),
                        MetricsSettings.enabled("1.0", true, RetentionPolicy.ofDays(6)),
                        MetricsSettings.disabled("1.0", RetentionPolicy.disabled()),
                        List.of(CorsRule.of(List.of("*"), List.of(Method.GET, Method.PUT, Method.HEAD),
                                        List.of("x-ms-version"), List.of("x-ms-client-request-id"), 10),
                                CorsRule.of(List.of("https://a.example", "https://b.example"), List.of(Method.MERGE),
                                        List.of(), List.of(), 0)))));
    }

    @Test
    void weReadOnlyTheGroupsTheSdkSets() {
        answer = new Canned(202, new byte[0]);
        service.setProperties(new TableServiceProperties().setMinuteMetrics(new TableServiceMetrics()
                .setVersion("1.0").setEnabled(true).setIncludeApis(false).setRetentionPolicy(days(1))));

        ServicePropertiesUpdate u = ServicePropertiesXml.parse(onlyRequest().body());
        assertThat(u.logging()).isEmpty();
        assertThat(u.hourMetrics()).isEmpty();
        assertThat(u.minuteMetrics()).contains(MetricsSettings.enabled("1.0", false, RetentionPolicy.ofDays(1)));
        // The SDK leaves out a Cors element nobody set, so the stored rules survive the merge.
        assertThat(u.cors()).isEmpty();
    }

    @Test
    void theSdkReadsTheServicePropertiesWeWrite() {
        answer = new Canned(200, ServicePropertiesXml.write(ServiceProperties.of(
                LoggingSettings.of("2.0", true, true, false, RetentionPolicy.ofDays(9)),
                MetricsSettings.enabled("1.0", false, RetentionPolicy.ofDays(365)),
                MetricsSettings.disabled("1.0", RetentionPolicy.ofDays(3)),
                List.of(CorsRule.of(List.of("https://a.example", "https://b.example"), List.of(Method.GET, Method.MERGE),
                                List.of("x-ms-meta*", "content-type"), List.of("x-ms-request-id"), 600),
                        CorsRule.of(List.of("*"), List.of(Method.OPTIONS), List.of(), List.of(), 0)))));

        TableServiceProperties p = service.getProperties();

        Recorded r = onlyRequest();
        assertThat(r.method()).isEqualTo("GET");
        assertThat(r.pathAndQuery()).isEqualTo("/" + ACCOUNT + "?restype=service&comp=properties");
        TableServiceLogging log = p.getLogging();
        assertThat(log.getAnalyticsVersion()).isEqualTo("2.0");
        assertThat(log.isReadLogged()).isTrue();
        assertThat(log.isWriteLogged()).isTrue();
        assertThat(log.isDeleteLogged()).isFalse();
        assertThat(log.getRetentionPolicy().isEnabled()).isTrue();
        assertThat(log.getRetentionPolicy().getDaysToRetain()).isEqualTo(9);
        TableServiceMetrics hour = p.getHourMetrics();
        assertThat(hour.getVersion()).isEqualTo("1.0");
        assertThat(hour.isEnabled()).isTrue();
        assertThat(hour.isIncludeApis()).isFalse();
        assertThat(hour.getTableServiceRetentionPolicy().getDaysToRetain()).isEqualTo(365);
        TableServiceMetrics minute = p.getMinuteMetrics();
        assertThat(minute.isEnabled()).isFalse();
        assertThat(minute.isIncludeApis()).isNull();
        assertThat(minute.getTableServiceRetentionPolicy().isEnabled()).isTrue();
        assertThat(minute.getTableServiceRetentionPolicy().getDaysToRetain()).isEqualTo(3);
        assertThat(p.getCorsRules()).hasSize(2);
        TableServiceCorsRule first = p.getCorsRules().get(0);
        assertThat(first.getAllowedOrigins()).isEqualTo("https://a.example,https://b.example");
        assertThat(first.getAllowedMethods()).isEqualTo("GET,MERGE");
        assertThat(first.getAllowedHeaders()).isEqualTo("x-ms-meta*,content-type");
        assertThat(first.getExposedHeaders()).isEqualTo("x-ms-request-id");
        assertThat(first.getMaxAgeInSeconds()).isEqualTo(600);
        TableServiceCorsRule second = p.getCorsRules().get(1);
        assertThat(second.getAllowedOrigins()).isEqualTo("*");
        assertThat(second.getAllowedMethods()).isEqualTo("OPTIONS");
        assertThat(second.getAllowedHeaders()).isIn(null, "");
        assertThat(second.getExposedHeaders()).isIn(null, "");
        assertThat(second.getMaxAgeInSeconds()).isZero();
    }

    @Test
    void theSdkReadsTheDefaultServiceProperties() {
        answer = new Canned(200, ServicePropertiesXml.write(ServiceProperties.DEFAULT));

        TableServiceProperties p = service.getProperties();

        assertThat(p.getLogging().isReadLogged()).isFalse();
        assertThat(p.getLogging().getRetentionPolicy().isEnabled()).isFalse();
        assertThat(p.getLogging().getRetentionPolicy().getDaysToRetain()).isNull();
        assertThat(p.getHourMetrics().isEnabled()).isTrue();
        assertThat(p.getHourMetrics().isIncludeApis()).isTrue();
        assertThat(p.getHourMetrics().getTableServiceRetentionPolicy().getDaysToRetain()).isEqualTo(7);
        assertThat(p.getMinuteMetrics().isEnabled()).isFalse();
        assertThat(p.getCorsRules()).isNullOrEmpty();
    }
}
