package io.tablestream.processor.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.Test;

class CommitNotifyingClientSupplierTest {
    private static final Map<String, Object> CONFIG = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
            "k1:9092,k2:9092,k3:9092", CommonClientConfigs.CLIENT_ID_CONFIG, "p");

    @Test
    void aNewProducerStartsFromTheBrokersKnownToRun() {
        Map<String, Object> config = CommitNotifyingClientSupplier.bootstrappingFromLiveBrokers(CONFIG,
                Optional.of(List.of("k2:9092", "k3:9092")));

        assertThat(config).containsEntry(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "k2:9092,k3:9092")
                .containsEntry(CommonClientConfigs.CLIENT_ID_CONFIG, "p");
    }

    @Test
    void withoutBrokersKnownToRunANewProducerStartsFromTheConfiguredOnes() {
        assertThat(CommitNotifyingClientSupplier.bootstrappingFromLiveBrokers(CONFIG, Optional.empty())).isEqualTo(CONFIG);
        assertThat(CommitNotifyingClientSupplier.bootstrappingFromLiveBrokers(CONFIG, Optional.of(List.of())))
                .isEqualTo(CONFIG);
    }
}
