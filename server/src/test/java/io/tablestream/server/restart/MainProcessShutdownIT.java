package io.tablestream.server.restart;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.server.process.ServerProcessLogs;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link io.tablestream.server.Main} in a process of its own: SIGTERM stops it cleanly, with exit status 0 and its data kept. */
@ExtendWith(ServerProcessLogs.class)
class MainProcessShutdownIT {
    private static final Logger LOG = LoggerFactory.getLogger(MainProcessShutdownIT.class);

    @TempDir
    Path dataDir;

    @Test
    void exitsZeroOnSigtermWithTheDataIntact() {
        try (ServerProcess process = ServerProcess.builder(dataDir).with(ServerSettings.PARTITIONS, 2).start()) {
            process.awaitServing(Duration.ofMinutes(2));
            TableClient table = process.client().createTable("Survivor");
            for (int i = 0; i < 10; i++) {
                table.createEntity(new TableEntity("p", "r" + i).addProperty("N", i));
            }
            String etag = table.getEntity("p", "r7").getETag();

            long begin = System.nanoTime();
            int status = process.stop(Duration.ofSeconds(60));
            LOG.info("Main stopped on SIGTERM in {} ms", (System.nanoTime() - begin) / 1_000_000);
            assertThat(status).as("exit status; last lines:%n%s", process.tail()).isZero();

            try (OwnServer again = OwnServer.start(dataDir)) {
                TableClient after = again.client().getTableClient("Survivor");
                assertThat(after.listEntities().stream().count()).isEqualTo(10);
                assertThat(after.getEntity("p", "r7").getETag()).isEqualTo(etag);
                again.stop();
            }
        }
    }
}
