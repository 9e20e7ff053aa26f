package io.tablestream.kafka.embedded;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.metadata.properties.MetaProperties;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KRaft node's one log directory (its metadata log included), formatted once, as Kafka's
 * {@code kafka-storage.sh format} does, and reused as it is afterwards.
 */
final class LogDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(LogDirectory.class);

    private LogDirectory() {
    }

    /**
     * Formats {@code directory} for node {@code nodeId} of the cluster {@code clusterId} if it has
     * never been formatted; returns the cluster id it holds (the given one when it was just formatted).
     */
    static String formatOnce(Path directory, int nodeId, String clusterId) {
        String dir = directory.toString();
        try {
            MetaPropertiesEnsemble existing = new MetaPropertiesEnsemble.Loader()
                    .addLogDirs(List.of(dir))
                    .addMetadataLogDir(dir)
                    .load();
            if (!existing.errorLogDirs().isEmpty()) {
                throw new EmbeddedKafkaException("Kafka data directory " + directory + " cannot be read");
            }
            MetaProperties formatted = existing.logDirProps().get(dir);
            if (formatted != null) {
                return formatted.clusterId().orElseThrow(() -> new EmbeddedKafkaException(
                        "Kafka data directory " + directory + " has no cluster id in its meta.properties"));
            }
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8))
                    .setNodeId(nodeId)
                    .setClusterId(clusterId)
                    .setControllerListenerName(EmbeddedKafkaBroker.CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(dir)
                    .addDirectory(dir)
                    .run();
            LOG.info("Formatted Kafka data directory {} for node {} of cluster {}", directory, nodeId, clusterId);
            return clusterId;
        } catch (EmbeddedKafkaException e) {
            throw e;
        } catch (Exception e) {
            throw new EmbeddedKafkaException("Cannot format Kafka data directory " + directory, e);
        }
    }
}
