package io.tablestream.processor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

class ClusterContactTest {
    @Test
    void namesBrokersAsBootstrapServersTakesThem() {
        assertThat(ClusterContact.addresses(List.of(new Node(2, "kafka-2", 9092), new Node(1, "10.0.0.1", 19092),
                new Node(3, "fd00::3", 9092))))
                .containsExactly("10.0.0.1:19092", "[fd00::3]:9092", "kafka-2:9092");
    }
}
