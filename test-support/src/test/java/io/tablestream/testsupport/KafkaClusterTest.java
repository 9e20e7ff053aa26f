package io.tablestream.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KafkaClusterTest {
    private final KafkaCluster cluster = new KafkaCluster(KafkaCluster.Origin.EMBEDDED, "127.0.0.1:9092", "run123");

    @Test
    void neverReturnsTheSameNameTwice() {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            names.add(cluster.uniqueName("commands"));
        }
        assertThat(names).hasSize(1_000).allMatch(name -> name.startsWith("commands-run123-"));
    }

    @Test
    void replacesCharactersKafkaDoesNotAllowInTopicNames() {
        assertThat(cluster.uniqueName("tables of shouldScan(Table)")).matches("tables-of-shouldScan-Table--run123-\\d+");
    }

    @Test
    void staysWithinKafkasTopicNameLength() {
        assertThat(cluster.uniqueName("x".repeat(400))).hasSizeLessThanOrEqualTo(249);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  "})
    void rejectsABlankBase(String base) {
        assertThatThrownBy(() -> cluster.uniqueName(base)).isInstanceOf(IllegalArgumentException.class);
    }
}
