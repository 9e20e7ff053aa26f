package io.tablestream.server.parity;

import static io.tablestream.server.RawTableClient.encode;
import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Protocol details the service documents (or is known to do) and Tablestream follows: Boolean
 * constants of a filter in any case, {@code $top=0}, the form of {@code x-ms-version}, and the
 * 4 MiB request limit — over raw HTTP and through the Java SDK.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class ProtocolParityIT {
    private static RawTableClient http;
    private static TableClient table;

    @BeforeAll
    static void seed(RunningServer server) {
        http = RawTableClient.to(server);
        table = server.client().createTable("Parity" + System.nanoTime() % 1_000_000);
        table.createEntity(new TableEntity("p", "on").addProperty("Active", true));
        table.createEntity(new TableEntity("p", "off").addProperty("Active", false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "True", "TRUE", "tRuE"})
    void readsTheBooleanTrueInAnyCase(String literal) {
        RawTableClient.Response r = http.get(table.getTableName() + "()?$filter=" + encode("Active eq " + literal))
                .send();

        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.rows()).extracting(row -> row.get("RowKey")).containsExactly("on");
        assertThat(table.listEntities(new ListEntitiesOptions().setFilter("Active eq " + literal), null, null)
                .stream().map(TableEntity::getRowKey).toList()).containsExactly("on");
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "False", "FALSE"})
    void readsTheBooleanFalseInAnyCase(String literal) {
        RawTableClient.Response r = http.get(table.getTableName() + "()?$filter=" + encode("Active eq " + literal))
                .send();

        assertThat(r.rows()).extracting(row -> row.get("RowKey")).containsExactly("off");
    }

    @Test
    void keepsOperatorsLowerCase() {
        assertServiceError(http.get(table.getTableName() + "()?$filter=" + encode("Active EQ true")).send(), 400,
                "InvalidInput");
    }

    @Test
    void answersTopZeroWithNoEntitiesAndNoContinuation() {
        RawTableClient.Response entities = http.get(table.getTableName() + "()?$top=0").send();
        RawTableClient.Response tables = http.get("Tables?$top=0").send();

        for (RawTableClient.Response r : java.util.List.of(entities, tables)) {
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.rows()).isEmpty();
            assertThat(r.header("x-ms-continuation-NextPartitionKey")).isNull();
            assertThat(r.header("x-ms-continuation-NextTableName")).isNull();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"invalid", "2019-2-2", "2019-02-30", "2019/02/02", "2011-08-18"})
    void refusesAnXmsVersionThatIsNotAServedVersion(String version) {
        RawTableClient.Response r = http.get("Tables").set("x-ms-version", version).send();

        assertServiceError(r, 400, "InvalidHeaderValue");
        assertThat(r.header("x-ms-version")).isNotEqualTo(version);
    }

    @Test
    void servesAndEchoesAWellFormedVersion() {
        RawTableClient.Response r = http.get("Tables").set("x-ms-version", "2023-11-03").send();

        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.header("x-ms-version")).isEqualTo("2023-11-03");
    }

    @Test
    void refusesABodyOverFourMebibytesWith413() {
        TableEntity big = new TableEntity("p", "big");
        for (int i = 0; i < 140; i++) {
            big.addProperty("P" + i, "x".repeat(32_000)); // ~4.5 MB of JSON
        }

        assertServiceError(() -> table.createEntity(big), 413, "RequestBodyTooLarge");
        assertThat(table.getEntity("p", "on")).isNotNull();
    }
}
