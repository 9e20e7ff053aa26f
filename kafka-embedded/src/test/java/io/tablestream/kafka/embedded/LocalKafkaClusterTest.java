package io.tablestream.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import kafka.server.KafkaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalKafkaClusterTest {
    @TempDir
    Path dir;

    @Test
    void laysOutThreeNodesOfOneQuorumOnConsecutivePortPairs() throws IOException {
        LocalKafkaCluster cluster = LocalKafkaCluster.prepare(dir, 3, "127.0.0.1", 19092, Map.of());

        assertThat(cluster.bootstrapServers()).isEqualTo("127.0.0.1:19092,127.0.0.1:19094,127.0.0.1:19096");
        assertThat(cluster.nodes()).extracting(LocalKafkaCluster.Node::name).containsExactly("kafka-1", "kafka-2", "kafka-3");
        for (LocalKafkaCluster.Node node : cluster.nodes()) {
            Properties p = load(node.propertiesFile());
            assertThat(p.getProperty("node.id")).isEqualTo(Integer.toString(node.id()));
            assertThat(p.getProperty("controller.quorum.voters"))
                    .isEqualTo("1@127.0.0.1:19093,2@127.0.0.1:19095,3@127.0.0.1:19097");
            assertThat(p.getProperty("log.dirs")).isEqualTo(node.directory().resolve("data").toString());
            assertThat(p.getProperty("min.insync.replicas")).isEqualTo("2");
            assertThat(new KafkaConfig(p, false).nodeId()).isEqualTo(node.id());
            assertThat(node.directory().resolve("data").resolve("meta.properties")).exists();
        }
    }

    @Test
    void keepsItsIdAndPickedPortsAcrossStarts() {
        LocalKafkaCluster first = LocalKafkaCluster.prepare(dir, 3, "127.0.0.1", 0, Map.of());
        LocalKafkaCluster again = LocalKafkaCluster.prepare(dir, 3, "127.0.0.1", 0, Map.of());

        assertThat(again.clusterId()).isEqualTo(first.clusterId());
        assertThat(again.bootstrapServers()).isEqualTo(first.bootstrapServers());
        assertThat(LocalKafkaCluster.of(dir).bootstrapServers()).isEqualTo(first.bootstrapServers());
        assertThat(first.bootstrapServers().split(",")).doesNotHaveDuplicates();
    }

    @Test
    void refusesToReuseTheDirectoryOfAClusterOfAnotherSize() {
        LocalKafkaCluster.prepare(dir, 3, "127.0.0.1", 0, Map.of());

        assertThatThrownBy(() -> LocalKafkaCluster.prepare(dir, 1, "127.0.0.1", 0, Map.of()))
                .isInstanceOf(EmbeddedKafkaException.class).hasMessageContaining("of 3 nodes");
    }

    @Test
    void addsPropertiesWithEachNodesIdInPlaceOfItsPlaceholder() throws IOException {
        LocalKafkaCluster cluster = LocalKafkaCluster.prepare(dir, 3, "127.0.0.1", 0,
                Map.of("ssl.keystore.location", "/certs/kafka-{node}.p12", "num.io.threads", "2"));

        Properties second = load(cluster.nodes().get(1).propertiesFile());
        assertThat(second.getProperty("ssl.keystore.location")).isEqualTo("/certs/kafka-2.p12");
        assertThat(second.getProperty("num.io.threads")).isEqualTo("2");
        assertThatThrownBy(() -> LocalKafkaCluster.prepare(dir, 3, "127.0.0.1", 0, Map.of("listeners", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listeners");
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p;
    }
}
