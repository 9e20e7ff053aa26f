package io.tablestream.server.queries;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Read-your-writes with {@code x-ms-session-token}: every write answer carries one, and a read
 * that carries it back sees the write — after sync writes through the SDK and after async
 * ({@code Prefer: respond-async}) writes, which are answered before they are applied.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class ReadYourWritesIT {
    private static final String TOKEN = "x-ms-session-token";

    @Test
    void aReadCarryingTheSessionTokenOfASyncWriteSeesIt(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "Ryw");
        Response<Void> created = table.createEntityWithResponse(new TableEntity("p", "r").addProperty("V", 1), null, null);
        String token = created.getHeaders().getValue(TOKEN);
        Response<Void> updated = table.updateEntityWithResponse(new TableEntity("p", "r").addProperty("V", 2),
                TableEntityUpdateMode.MERGE, false, null, null);
        String second = updated.getHeaders().getValue(TOKEN);

        RawTableClient.Response read = RawTableClient.to(server).read(
                table.getTableName() + "(PartitionKey='p',RowKey='r')", TOKEN, second);

        assertThat(token).matches("\\d+:\\d+");
        assertThat(second).matches("\\d+:\\d+");
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        assertThat(read.json()).containsEntry("V", 2);
    }

    @Test
    void readsCarryingTheTokensOfAsyncWritesSeeEveryOne(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "RywAsync");
        RawTableClient http = RawTableClient.to(server);
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            RawTableClient.Response r = http.send("POST", table.getTableName(),
                    "{\"PartitionKey\":\"p" + (i % 5) + "\",\"RowKey\":\"r" + i + "\",\"V\":" + i + "}",
                    "Prefer", "respond-async");
            assertThat(r.status()).as(r.body()).isEqualTo(202);
            assertThat(r.header("Preference-Applied")).isEqualTo("respond-async");
            tokens.add(r.header(TOKEN));
        }

        RawTableClient.Response last = http.read(table.getTableName() + "(PartitionKey='p4',RowKey='r19')",
                TOKEN, tokens.get(19));
        RawTableClient.Response all = http.read(table.getTableName() + "()", TOKEN, String.join(",", tokens));

        assertThat(last.status()).as(last.body()).isEqualTo(200);
        assertThat(last.json()).containsEntry("V", 19);
        assertThat(all.status()).as(all.body()).isEqualTo(200);
        assertThat(all.rows()).hasSize(20);
    }

    @Test
    void anAsyncUpsertIsSeenByTheNextReadCarryingItsToken(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "RywUpsert");
        table.createEntity(new TableEntity("p", "r").addProperty("V", "old"));
        RawTableClient http = RawTableClient.to(server);
        String entity = table.getTableName() + "(PartitionKey='p',RowKey='r')";

        RawTableClient.Response write = http.send("PUT", entity, "{\"V\":\"new\"}", "Prefer", "respond-async");
        RawTableClient.Response read = http.read(entity, TOKEN, write.header(TOKEN));

        assertThat(write.status()).as(write.body()).isEqualTo(202);
        assertThat(read.json()).containsEntry("V", "new");
    }

    @Test
    void aReadCarryingTheTokenOfAnAsyncDeleteNoLongerFindsTheEntity(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "RywDelete");
        table.createEntity(new TableEntity("p", "r").addProperty("V", 1));
        RawTableClient http = RawTableClient.to(server);
        String entity = table.getTableName() + "(PartitionKey='p',RowKey='r')";

        RawTableClient.Response delete = http.send("DELETE", entity, null, "If-Match", "*", "Prefer", "respond-async");
        RawTableClient.Response read = http.read(entity, TOKEN, delete.header(TOKEN));
        RawTableClient.Response query = http.read(table.getTableName() + "()", TOKEN, delete.header(TOKEN));

        assertThat(delete.status()).as(delete.body()).isEqualTo(202);
        assertThat(read.status()).isEqualTo(404);
        assertThat(read.errorCode()).isEqualTo("ResourceNotFound");
        assertThat(query.rows()).isEmpty();
    }

    @Test
    void aMalformedSessionTokenIsInvalidHeaderValue(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "RywBad");

        RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()", TOKEN, "soon");

        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorCode()).isEqualTo("InvalidHeaderValue");
    }

    @Test
    void aTokenNamingAWriteNeverMadeIsRefusedAtOnce(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "RywFuture");
        Response<Void> created = table.createEntityWithResponse(new TableEntity("p", "r"), null, null);
        String[] position = created.getHeaders().getValue(TOKEN).split(":");
        String justPastTheEnd = position[0] + ":" + (Long.parseLong(position[1]) + 1_000_000);

        long start = System.nanoTime();
        RawTableClient.Response far = RawTableClient.to(server).read(table.getTableName() + "()?" + query("$top", "1"),
                TOKEN, "0:999999999");
        RawTableClient.Response past = RawTableClient.to(server).read(
                table.getTableName() + "(PartitionKey='p',RowKey='r')", TOKEN, justPastTheEnd);
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(far.status()).as(far.body()).isEqualTo(400);
        assertThat(far.errorCode()).isEqualTo("InvalidHeaderValue");
        assertThat(past.status()).as(past.body()).isEqualTo(400);
        assertThat(past.errorCode()).isEqualTo("InvalidHeaderValue");
        assertThat(millis).as("both answered without waiting for the session timeout (5 s)").isLessThan(4_000);
    }
}
