package io.tablestream.server.restart;

import io.tablestream.core.model.EmulatorAccount;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TablestreamServer;
import io.tablestream.server.TablestreamServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A Tablestream of a test's own — not the shared one — with the embedded broker, all its state in
 * one data directory, so it can be stopped and started again on the same data.
 */
final class OwnServer implements AutoCloseable {
    private final TablestreamServer server;
    private final Duration startedIn;

    private OwnServer(TablestreamServer server, Duration startedIn) {
        this.server = server;
        this.startedIn = startedIn;
    }

    static OwnServer start(Path dataDir) {
        long begin = System.nanoTime();
        TablestreamServer server = TablestreamServer.start(ServerConfig.of(Map.of(
                ServerSettings.PORT, 0,
                ServerSettings.DATA_DIR, dataDir,
                ServerSettings.KAFKA_BOOTSTRAP_SERVERS, "",
                ServerSettings.PARTITIONS, 2)));
        return new OwnServer(server, Duration.ofNanos(System.nanoTime() - begin));
    }

    static String connectionString(int port) {
        return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
                + EmulatorAccount.KEY + ";TableEndpoint=http://127.0.0.1:" + port
                + "/devstoreaccount1;";
    }

    int port() {
        return server.port();
    }

    Duration startedIn() {
        return startedIn;
    }

    TableServiceClient client() {
        return new TableServiceClientBuilder().connectionString(connectionString(port())).buildClient();
    }

    /** Stops the server; returns how long that took. */
    Duration stop() {
        long begin = System.nanoTime();
        server.close();
        return Duration.ofNanos(System.nanoTime() - begin);
    }

    @Override
    public void close() {
        server.close();
    }
}
