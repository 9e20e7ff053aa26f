package io.tablestream.server.queries;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code GET /<table>()/$count?$filter=…} over HTTP: the number of matches as plain text, across
 * every Kafka partition, for one partition, and in parts with continuations when the row budget of
 * a request runs out (the test server's budget is far below the 5,000 rows here). The data: 50
 * PartitionKeys {@code p00..p49} of 100 rows; row {@code i} has {@code N = i}.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class CountIT {
    private static final int PARTITIONS = 50;
    private static final int ROWS = 100;
    private static TableClient table;

    @BeforeAll
    static void givenEntities(TableServiceClient service) {
        table = TableFixtures.givenTable(service, "Count");
        List<TableEntity> entities = new ArrayList<>();
        for (int i = 0; i < PARTITIONS * ROWS; i++) {
            entities.add(new TableEntity(String.format("p%02d", i / ROWS), String.format("r%03d", i % ROWS))
                    .addProperty("N", i));
        }
        TableFixtures.insertAll(table, entities);
    }

    /** The sum of the counts of every continuation, and how many requests it took. */
    private static long[] count(RunningServer server, String filter) {
        RawTableClient http = RawTableClient.to(server);
        long total = 0;
        int requests = 0;
        String nextPk = null;
        String nextRk = null;
        do {
            String target = table.getTableName() + "()/$count" + (filter == null ? "" : "?" + query("$filter", filter));
            if (nextPk != null) {
                target += (filter == null ? "?" : "&") + query("NextPartitionKey", nextPk, "NextRowKey", nextRk);
            }
            RawTableClient.Response r = http.read(target);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.header("Content-Type")).startsWith("text/plain");
            assertThat(r.body()).matches("[0-9]+");
            total += Long.parseLong(r.body());
            nextPk = r.header("x-ms-continuation-NextPartitionKey");
            nextRk = r.header("x-ms-continuation-NextRowKey");
            requests++;
        } while (nextPk != null && requests < 1_000);
        return new long[] {total, requests};
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        "-|5000",
        "N lt 1234|1234",
        "N ge 4990 or N eq 7|11",
        "PartitionKey eq 'p07'|100",
        "PartitionKey eq 'p07' and RowKey ge 'r090'|10",
        "PartitionKey ge 'p10' and PartitionKey lt 'p20' and N gt 1050|949",
        "PartitionKey eq 'none'|0",
        "N lt 0|0",
    })
    void countsTheMatchesOverEveryContinuation(String filter, long expected, RunningServer server) {
        assertThat(count(server, filter)[0]).isEqualTo(expected);
    }

    @Test
    void aWholeTableCountEndsWithinTheRowBudgetAndContinues(RunningServer server) {
        long[] counted = count(server, null);

        assertThat(counted[0]).isEqualTo(PARTITIONS * ROWS);
        assertThat(counted[1]).as("requests").isGreaterThan(1);
    }

    @Test
    void aTableThatDoesNotExistIs404(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read("NoSuchTable42()/$count");

        assertThat(r.status()).isEqualTo(404);
        assertThat(r.errorCode()).isEqualTo("TableNotFound");
    }

    @ParameterizedTest
    @ValueSource(strings = {"$top=5", "$select=N", "$orderby=RowKey%20desc"})
    void optionsACountCannotHonourAre400(String option, RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()/$count?" + option);

        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorCode()).isEqualTo("InvalidQueryParameterValue");
    }

    @Test
    void aBadFilterIsTheQuerysError(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()/$count?"
                + query("$filter", "N eq"));

        assertThat(r.status()).isEqualTo(400);
    }

    @Test
    void aWriteIsRefusedOnTheCountSegment(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).send("POST", table.getTableName() + "()/$count", "{}",
                "Content-Type", "application/json");

        assertThat(r.status()).isEqualTo(405);
    }

    private static RawTableClient.Response withSas(RunningServer server, String letters, String startPk, String endPk) {
        TableSasSignatureValues values = new TableSasSignatureValues(OffsetDateTime.now(ZoneOffset.UTC).plusHours(1),
                TableSasPermission.parse(letters));
        if (startPk != null) {
            values.setStartPartitionKey(startPk).setStartRowKey("r000").setEndPartitionKey(endPk).setEndRowKey("r999");
        }
        return RawTableClient.to(server).get(table.getTableName() + "()/$count?" + table.generateSas(values))
                .unsigned().send();
    }

    @Test
    void aServiceSasWithReadCountsWhatItMayRead(RunningServer server) {
        RawTableClient.Response all = withSas(server, "r", null, null);
        RawTableClient.Response range = withSas(server, "r", "p10", "p12");

        assertThat(all.status()).as(all.body()).isEqualTo(200);
        assertThat(range.status()).as(range.body()).isEqualTo(200);
        assertThat(range.body()).isEqualTo("300");
    }

    @Test
    void aServiceSasWithoutReadIsRefused(RunningServer server) {
        RawTableClient.Response r = withSas(server, "au", null, null);

        assertThat(r.status()).isEqualTo(403);
        assertThat(r.errorCode()).isEqualTo("AuthorizationPermissionMismatch");
    }
}
