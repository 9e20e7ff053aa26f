package io.tablestream.server.restart;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.Main;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link Main} in a process of its own: SIGTERM stops it cleanly, with exit status 0 and its data kept. */
class MainProcessShutdownIT {
    private static final Logger LOG = LoggerFactory.getLogger(MainProcessShutdownIT.class);
    private static final Pattern SERVING = Pattern.compile("serving the Table service at http://127\\.0\\.0\\.1:(\\d+)/");

    @TempDir
    Path dataDir;

    @Test
    void exitsZeroOnSigtermWithTheDataIntact() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), Main.class.getName())
                .redirectErrorStream(true);
        builder.environment().remove("KAFKA_BOOTSTRAP_SERVERS");
        builder.environment().put("TABLESTREAM_PORT", "0");
        builder.environment().put("TABLESTREAM_DATA_DIR", dataDir.toString());
        builder.environment().put("TABLESTREAM_PARTITIONS", "2");
        Process process = builder.start();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        List<String> output = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    output.add(line);
                    Matcher m = SERVING.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (Exception e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new IllegalStateException("Main ended before serving"));
        }, "main-output");
        reader.setDaemon(true);
        reader.start();
        try {
            int p = port.get(120, TimeUnit.SECONDS);
            TableClient table = new TableServiceClientBuilder().connectionString(OwnServer.connectionString(p))
                    .buildClient().createTable("Survivor");
            for (int i = 0; i < 10; i++) {
                table.createEntity(new TableEntity("p", "r" + i).addProperty("N", i));
            }
            String etag = table.getEntity("p", "r7").getETag();

            long begin = System.nanoTime();
            process.destroy(); // SIGTERM
            boolean exited = process.waitFor(60, TimeUnit.SECONDS);
            long stopMillis = (System.nanoTime() - begin) / 1_000_000;
            LOG.info("Main stopped on SIGTERM in {} ms", stopMillis);

            assertThat(exited).as("exited within 60 s; output:%n%s", String.join("\n", output)).isTrue();
            assertThat(process.exitValue()).as("exit status; output:%n%s", String.join("\n", output)).isZero();
            try (OwnServer again = OwnServer.start(dataDir)) {
                TableClient after = again.client().getTableClient("Survivor");
                assertThat(after.listEntities().stream().count()).isEqualTo(10);
                assertThat(after.getEntity("p", "r7").getETag()).isEqualTo(etag);
                again.stop();
            }
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }
}
