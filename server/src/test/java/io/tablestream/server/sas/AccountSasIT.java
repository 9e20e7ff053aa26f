package io.tablestream.server.sas;

import static io.tablestream.server.sas.SasClients.OK;
import static io.tablestream.server.sas.SasClients.outcome;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Account SAS from {@code TableServiceClient.generateAccountSas}: resource types ({@code s c o}),
 * services ({@code t} required) and permissions ({@code r w d l a c u}) decide per operation.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class AccountSasIT {
    private static final AtomicInteger ROW = new AtomicInteger();

    private static RunningServer server;
    private static TableClient table;

    @BeforeAll
    static void givenATable(RunningServer running) {
        server = running;
        table = TableFixtures.givenTable(server.client(), "Acct");
        table.createEntity(new TableEntity("p", "r").addProperty("V", 1));
    }

    private static String sas(String services, String resourceTypes, String permissions, OffsetDateTime expiry) {
        return server.client().generateAccountSas(new TableAccountSasSignatureValues(expiry,
                TableAccountSasPermission.parse(permissions), TableAccountSasService.parse(services),
                TableAccountSasResourceType.parse(resourceTypes)));
    }

    private static Map<String, String> tryEveryOperation(String sas) {
        TableServiceClient service = SasClients.serviceClient(server, sas);
        TableClient t = SasClients.tableClient(server, table.getTableName(), sas);
        Map<String, String> outcomes = new LinkedHashMap<>();
        outcomes.put("list tables", outcome(() -> service.listTables().stream().count()));
        String created = TableFixtures.uniqueName("AcctNew");
        outcomes.put("create table", outcome(() -> service.createTable(created)));
        String doomed = TableFixtures.uniqueName("AcctDoomed");
        server.client().createTable(doomed);
        outcomes.put("delete table", outcome(() -> service.deleteTable(doomed)));
        outcomes.put("get", outcome(() -> t.getEntity("p", "r")));
        outcomes.put("query", outcome(() -> t.listEntities().stream().count()));
        outcomes.put("insert", outcome(() -> t.createEntity(new TableEntity("p", "n" + ROW.incrementAndGet()))));
        outcomes.put("merge", outcome(() -> t.updateEntity(new TableEntity("p", "r"), TableEntityUpdateMode.MERGE)));
        outcomes.put("upsert", outcome(() -> t.upsertEntity(new TableEntity("p", "u" + ROW.incrementAndGet()))));
        String row = "d" + ROW.incrementAndGet();
        table.createEntity(new TableEntity("p", row));
        outcomes.put("delete", outcome(() -> t.deleteEntity("p", row)));
        return outcomes;
    }

    /**
     * Expected outcomes per operation: the resource type it needs (c for tables, o for entities)
     * and the permission letters (all of them; create table needs c or w).
     */
    private static Map<String, String> expected(String resourceTypes, String permissions) {
        Map<String, String> e = new LinkedHashMap<>();
        e.put("list tables", decide(resourceTypes, 'c', permissions.contains("l")));
        e.put("create table", decide(resourceTypes, 'c', permissions.contains("c") || permissions.contains("w")));
        e.put("delete table", decide(resourceTypes, 'c', permissions.contains("d")));
        e.put("get", decide(resourceTypes, 'o', permissions.contains("r")));
        e.put("query", decide(resourceTypes, 'o', permissions.contains("r")));
        e.put("insert", decide(resourceTypes, 'o', permissions.contains("a")));
        e.put("merge", decide(resourceTypes, 'o', permissions.contains("u")));
        e.put("upsert", decide(resourceTypes, 'o', permissions.contains("a") && permissions.contains("u")));
        e.put("delete", decide(resourceTypes, 'o', permissions.contains("d")));
        return e;
    }

    private static String decide(String resourceTypes, char needed, boolean permitted) {
        if (resourceTypes.indexOf(needed) < 0) {
            return "403 AuthorizationResourceTypeMismatch";
        }
        return permitted ? OK : "403 AuthorizationPermissionMismatch";
    }

    @ParameterizedTest(name = "srt={0} sp={1}")
    @CsvSource({"sco,rwdlacu", "o,rwdlacu", "c,rwdlacu", "sco,r", "sco,l", "sco,a", "sco,u", "sco,au", "sco,d",
            "sco,c", "sco,w", "co,rl"})
    void resourceTypesAndPermissionsDecideEachOperation(String resourceTypes, String permissions) {
        String sas = sas("t", resourceTypes, permissions, OffsetDateTime.now(ZoneOffset.UTC).plusHours(1));

        assertThat(tryEveryOperation(sas)).isEqualTo(expected(resourceTypes, permissions));
    }

    @Test
    void aSasWithoutTheTableServiceIsAuthorizationServiceMismatch() {
        String sas = sas("bq", "sco", "rwdlacu", OffsetDateTime.now(ZoneOffset.UTC).plusHours(1));
        TableClient t = SasClients.tableClient(server, table.getTableName(), sas);

        assertThat(outcome(() -> t.getEntity("p", "r"))).isEqualTo("403 AuthorizationServiceMismatch");
    }

    @Test
    void anExpiredAccountSasIsAuthenticationFailed() {
        String sas = sas("t", "sco", "rwdlacu", OffsetDateTime.now(ZoneOffset.UTC).minusMinutes(1));
        TableClient t = SasClients.tableClient(server, table.getTableName(), sas);

        assertThat(outcome(() -> t.getEntity("p", "r"))).isEqualTo("403 AuthenticationFailed");
    }
}
