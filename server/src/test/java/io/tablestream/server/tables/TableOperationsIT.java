package io.tablestream.server.tables;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Create Table, Delete Table and Query Tables through the official SDK (and raw HTTP where the SDK hides the answer). */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class TableOperationsIT {

    @Test
    void createsATableAnsweringNoContentAsTheSdkAsks(TableServiceClient service) {
        String name = TableNames.unique("Create");

        Response<TableClient> response = service.createTableWithResponse(name, null, null);

        assertThat(response.getStatusCode()).isEqualTo(204);
        assertThat(response.getHeaders().getValue("Preference-Applied")).isEqualTo("return-no-content");
        assertThat(response.getHeaders().getValue("Location")).endsWith("/devstoreaccount1/Tables('" + name + "')");
        assertThat(response.getHeaders().getValue("DataServiceId")).endsWith("/devstoreaccount1/Tables('" + name + "')");
        assertThat(response.getValue().getTableName()).isEqualTo(name);
        assertThat(service.listTables(new ListTablesOptions().setFilter("TableName eq '" + name + "'"), null, null)
                .stream().map(TableItem::getName)).containsExactly(name);
    }

    @Test
    void tableClientCreateTableReturnsTheTableItem(TableServiceClient service) {
        String name = TableNames.unique("Item");

        TableItem item = service.getTableClient(name).createTable();

        assertThat(item.getName()).isEqualTo(name);
        assertThat(service.getTableClient(name).listEntities().stream()).isEmpty();
    }

    @Test
    void createsATableAnswering201WithTheTableWhenContentIsWanted(RunningServer server) {
        String name = TableNames.unique("Content");

        RawTableClient.Response response = RawTableClient.to(server).send("POST", "Tables",
                "{\"TableName\":\"" + name + "\"}", "Prefer", "return-content");

        assertThat(response.status()).isEqualTo(201);
        assertThat(response.header("Preference-Applied")).isEqualTo("return-content");
        assertThat(response.header("Location")).satisfies(
                l -> assertThat(l).endsWith("/devstoreaccount1/Tables('" + name + "')"));
        assertThat(response.header("Content-Type")).satisfies(
                t -> assertThat(t).startsWith("application/json;odata=minimalmetadata"));
        assertThat(response.body()).contains("\"TableName\":\"" + name + "\"")
                .contains("\"odata.metadata\":\"" + server.endpoint() + "/$metadata#Tables/@Element\"");
    }

    @Test
    void getTableAndQueryTablesShowTheTablesExtensionSettingsAtNoMetadataOnly(RunningServer server,
                                                                             TableServiceClient service) {
        String name = TableNames.unique("Settings");
        String plain = TableNames.unique("Plain");
        RawTableClient raw = RawTableClient.to(server);
        assertThat(raw.send("POST", "Tables", "{\"TableName\":\"" + name
                + "\",\"TTLInSeconds\":3600,\"HistoryRetentionInSeconds\":86400}").status()).isEqualTo(201);
        service.createTable(plain);
        String none = "application/json;odata=nometadata";

        RawTableClient.Response item = raw.read("Tables('" + name + "')", "Accept", none);
        RawTableClient.Response list = raw.read("Tables?" + RawTableClient.query("$filter",
                "TableName eq '" + name + "' or TableName eq '" + plain + "'"), "Accept", none);
        RawTableClient.Response full = raw.read("Tables('" + name + "')", "Accept",
                "application/json;odata=fullmetadata");
        RawTableClient.Response minimal = raw.read("Tables('" + name + "')", "Accept",
                "application/json;odata=minimalmetadata");

        assertThat(item.json()).containsEntry("TableName", name).containsEntry("TTLInSeconds", 3600)
                .containsEntry("HistoryRetentionInSeconds", 86400);
        assertThat(list.body()).isEqualTo("{\"value\":[{\"TableName\":\"" + plain + "\"},{\"TableName\":\"" + name
                + "\",\"TTLInSeconds\":3600,\"HistoryRetentionInSeconds\":86400}]}");
        assertThat(full.body()).doesNotContain("TTLInSeconds").doesNotContain("HistoryRetention");
        assertThat(minimal.body()).doesNotContain("TTLInSeconds").doesNotContain("HistoryRetention");
        // the SDK lists it as any table
        assertThat(service.listTables(new ListTablesOptions().setFilter("TableName eq '" + name + "'"), null, null)
                .stream().map(TableItem::getName)).containsExactly(name);
    }

    @Test
    void createsATableAnswering201WithoutAPreference(RunningServer server) {
        String name = TableNames.unique("NoPrefer");

        RawTableClient.Response response = RawTableClient.to(server).send("POST", "Tables", "{\"TableName\":\"" + name + "\"}");

        assertThat(response.status()).isEqualTo(201);
        assertThat(response.header("Preference-Applied")).isNull();
        assertThat(response.body()).contains("\"TableName\":\"" + name + "\"");
    }

    @Test
    void refusesATableWhoseNameDiffersOnlyInCase(TableServiceClient service) {
        String name = TableNames.unique("Case");
        service.createTable(name);

        assertServiceError(() -> service.createTable(name.toUpperCase(Locale.ROOT)), 409, "TableAlreadyExists");
        assertServiceError(() -> service.createTable(name), 409, "TableAlreadyExists");
        assertThat(service.listTables().stream().map(TableItem::getName)
                .filter(n -> n.equalsIgnoreCase(name))).containsExactly(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1starts", "ab", "has-dash", "has_underscore", "Tables", "tables",
            "a234567890123456789012345678901234567890123456789012345678901234"})
    void refusesAnInvalidOrReservedTableName(String name, TableServiceClient service) {
        assertServiceError(() -> service.createTable(name), 400, "InvalidResourceName");
    }

    @Test
    void createTableIfNotExistsCreatesOnceAndThenReturnsTheExistingTable(TableServiceClient service) {
        String name = TableNames.unique("IfNot");

        Response<TableClient> first = service.createTableIfNotExistsWithResponse(name, null, null);
        service.getTableClient(name).createEntity(new TableEntity("p", "r"));
        Response<TableClient> second = service.createTableIfNotExistsWithResponse(name, null, null);

        assertThat(first.getStatusCode()).isEqualTo(204);
        assertThat(second.getStatusCode()).isEqualTo(409);
        assertThat(second.getHeaders().getValue("x-ms-error-code")).isEqualTo("TableAlreadyExists");
        assertThat(second.getValue().listEntities().stream().map(TableEntity::getRowKey)).containsExactly("r");
        assertThat(service.createTableIfNotExists(name)).isNotNull();
    }

    @Test
    void deletesATable(TableServiceClient service) {
        String name = TableNames.unique("Delete");
        TableClient table = service.createTable(name);
        table.createEntity(new TableEntity("p", "r"));

        Response<Void> response = service.deleteTableWithResponse(name, null, null);

        assertThat(response.getStatusCode()).isEqualTo(204);
        assertThat(service.listTables().stream().map(TableItem::getName)).doesNotContain(name);
        assertServiceError(() -> table.getEntity("p", "r"), 404, "TableNotFound");
        assertServiceError(() -> table.createEntity(new TableEntity("p", "r2")), 404, "TableNotFound");
    }

    @Test
    void deletingAMissingTableIsA404TheSdkSwallows(TableServiceClient service) {
        String name = TableNames.unique("Missing");

        Response<Void> viaService = service.deleteTableWithResponse(name, null, null);
        Response<Void> viaTable = service.getTableClient(name).deleteTableWithResponse(null, null);

        assertThat(viaService.getStatusCode()).isEqualTo(404);
        assertThat(viaService.getHeaders().getValue("x-ms-error-code")).isEqualTo("ResourceNotFound");
        assertThat(viaTable.getStatusCode()).isEqualTo(404);
        service.deleteTable(name); // no exception: the SDK swallows the 404
    }

    @Test
    void deletingATableTwiceFindsNothingTheSecondTime(TableServiceClient service) {
        String name = TableNames.unique("Twice");
        service.createTable(name);

        assertThat(service.deleteTableWithResponse(name, null, null).getStatusCode()).isEqualTo(204);
        assertThat(service.deleteTableWithResponse(name, null, null).getStatusCode()).isEqualTo(404);
    }

    @Test
    void aTableCreatedAgainAfterDeleteStartsEmpty(TableServiceClient service) {
        String name = TableNames.unique("Again");
        TableClient table = service.createTable(name);
        table.createEntity(new TableEntity("p", "r1").addProperty("Old", true));
        table.createEntity(new TableEntity("q", "r2"));
        service.deleteTable(name);

        TableClient again = service.createTable(name.toLowerCase(Locale.ROOT));

        assertThat(again.listEntities().stream()).isEmpty();
        assertServiceError(() -> again.getEntity("p", "r1"), 404, "ResourceNotFound");
        again.createEntity(new TableEntity("p", "r1"));
        assertThat(again.getEntity("p", "r1").getProperties()).doesNotContainKey("Old");
        assertThat(service.listTables().stream().map(TableItem::getName)
                .filter(n -> n.equalsIgnoreCase(name))).containsExactly(name.toLowerCase(Locale.ROOT));
    }

    @Test
    void listsTablesWithFiltersAndPages(TableServiceClient service) {
        String prefix = TableNames.unique("List");
        List<String> names = List.of(prefix + "a", prefix + "B", prefix + "c");
        names.forEach(service::createTable);

        List<String> all = service.listTables().stream().map(TableItem::getName).collect(Collectors.toList());
        List<String> filtered = service.listTables(new ListTablesOptions()
                .setFilter("TableName ge '" + prefix + "' and TableName lt '" + prefix + "{'"), null, null)
                .stream().map(TableItem::getName).collect(Collectors.toList());
        List<String> paged = service.listTables(new ListTablesOptions().setTop(1)
                        .setFilter("TableName ge '" + prefix + "' and TableName lt '" + prefix + "{'"), null, null)
                .streamByPage().flatMap(page -> {
                    assertThat(page.getValue()).hasSizeLessThanOrEqualTo(1);
                    return page.getValue().stream().map(TableItem::getName);
                }).collect(Collectors.toList());

        assertThat(all).containsAll(names);
        assertThat(filtered).containsExactlyInAnyOrderElementsOf(names);
        assertThat(paged).containsExactlyInAnyOrderElementsOf(names);
    }
}
