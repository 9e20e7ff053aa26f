package io.tablestream.processor;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * A processor configuration for this module's tests: 8 partitions, replication 1, two stream threads,
 * commits at least every 100 ms. The tests' own choice: the product's defaults are the server's
 * settings (ServerSettings), which only the server's tests run on.
 */
public final class TestProcessorConfig {
    private TestProcessorConfig() {
    }

    public static StreamProcessorConfig of(String bootstrapServers, String topicPrefix, Path stateDir) {
        return new StreamProcessorConfig(bootstrapServers, topicPrefix, 8, (short) 1, stateDir, "node-1", null, 2, 0,
                Duration.ofMillis(100), Map.of(), Clock.systemUTC());
    }
}
