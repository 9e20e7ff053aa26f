package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.tablestream.testsupport.KafkaExtension;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The official SDK against a running server: the basic operations, end to end. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class SdkSmokeIT {

    @Test
    void createsATableWritesReadsQueriesAndDeletes(TableServiceClient service) {
        TableClient table = service.createTable("Smoke" + System.nanoTime() % 100000);

        table.createEntity(new TableEntity("p", "r1").addProperty("Name", "one").addProperty("N", 1));
        table.upsertEntity(new TableEntity("p", "r2").addProperty("Name", "two").addProperty("N", 2));
        TableEntity got = table.getEntity("p", "r1");
        table.updateEntity(new TableEntity("p", "r1").addProperty("Extra", true), TableEntityUpdateMode.MERGE);
        List<String> rows = table.listEntities(new ListEntitiesOptions().setFilter("N ge 2"), null, null).stream()
                .map(TableEntity::getRowKey).collect(Collectors.toList());
        table.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "r3")),
                new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity("p", "r2"))));
        table.deleteEntity("p", "r1");

        assertThat(got.getProperty("Name")).isEqualTo("one");
        assertThat(got.getProperty("N")).isEqualTo(1);
        assertThat(got.getETag()).startsWith("W/\"datetime'");
        assertThat(rows).containsExactly("r2");
        assertThat(table.listEntities().stream().map(TableEntity::getRowKey)).containsExactly("r3");
        assertThatThrownBy(() -> table.createEntity(new TableEntity("p", "r3")))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.getResponse().getStatusCode()).isEqualTo(409));
        assertThat(service.listTables().stream().map(t -> t.getName())).contains(table.getTableName());
        table.deleteTable();
        assertThat(service.listTables().stream().map(t -> t.getName())).doesNotContain(table.getTableName());
    }
}
