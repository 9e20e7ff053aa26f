package io.tablestream.server.sas;

import static io.tablestream.server.sas.SasClients.outcome;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.EmulatorAccount;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Requests without credentials, or signed with a key the account does not have, are refused. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class SignatureIT {
    private static final String OTHER_KEY = Base64.getEncoder()
            .encodeToString("a 32-byte key that is not ours!!".getBytes(StandardCharsets.US_ASCII));

    @Test
    void anUnsignedRequestIsAuthorizationFailure(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "Unsigned");
        RawTableClient unsigned = RawTableClient.to(server).signing(RawTableClient.Signing.NONE);

        RawTableClient.Response tables = unsigned.read("Tables");
        RawTableClient.Response entities = unsigned.read(table.getTableName() + "()");

        assertThat(tables.status()).isEqualTo(403);
        assertThat(tables.errorCode()).isEqualTo("AuthorizationFailure");
        assertThat(entities.status()).isEqualTo(403);
        assertThat(entities.errorCode()).isEqualTo("AuthorizationFailure");
        assertThat(entities.json()).containsKey("odata.error");
    }

    @Test
    void aRequestSignedWithAnotherKeyIsAuthorizationFailure(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "WrongKey");
        table.createEntity(new TableEntity("p", "r"));
        TableServiceClient wrong = new TableServiceClientBuilder()
                .connectionString(server.connectionString().replace(EmulatorAccount.KEY, OTHER_KEY))
                .buildClient();

        assertThat(outcome(() -> wrong.getTableClient(table.getTableName()).getEntity("p", "r")))
                .isEqualTo("403 AuthorizationFailure");
        assertThat(outcome(() -> wrong.listTables().stream().count())).isEqualTo("403 AuthorizationFailure");
        assertThat(outcome(() -> wrong.createTable(TableFixtures.uniqueName("Never"))))
                .isEqualTo("403 AuthorizationFailure");
        RawTableClient.Response raw = RawTableClient.to(server).withKey(OTHER_KEY).read(table.getTableName() + "()");
        assertThat(raw.status()).isEqualTo(403);
        assertThat(raw.errorCode()).isEqualTo("AuthorizationFailure");
    }

    @Test
    void aSasSignedWithAnotherKeyOrTamperedWithIsAuthorizationFailure(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "BadSas");
        table.createEntity(new TableEntity("p", "r"));
        TableClient otherKeyTable = new TableServiceClientBuilder()
                .connectionString(server.connectionString().replace(EmulatorAccount.KEY, OTHER_KEY))
                .buildClient().getTableClient(table.getTableName());
        TableSasSignatureValues values = new TableSasSignatureValues(OffsetDateTime.now(ZoneOffset.UTC).plusHours(1),
                TableSasPermission.parse("r"));
        String foreign = otherKeyTable.generateSas(values);
        String widened = table.generateSas(values).replace("sp=r", "sp=raud");

        assertThat(outcome(() -> SasClients.tableClient(server, table.getTableName(), foreign).getEntity("p", "r")))
                .isEqualTo("403 AuthorizationFailure");
        assertThat(outcome(() -> SasClients.tableClient(server, table.getTableName(), widened).getEntity("p", "r")))
                .isEqualTo("403 AuthorizationFailure");
        assertThat(SasClients.tableClient(server, table.getTableName(), table.generateSas(values)).getEntity("p", "r"))
                .isNotNull();
    }
}
