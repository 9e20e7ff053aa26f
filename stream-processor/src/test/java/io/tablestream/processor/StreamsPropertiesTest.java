package io.tablestream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

class StreamsPropertiesTest {
    @Test
    void doesNotIdleTasksBecauseEachReadsOnePartitionOfOneTopic() {
        StreamProcessorConfig config = TestProcessorConfig.of("127.0.0.1:9092", "t", Path.of("/tmp/unused"));
        Properties p = StreamProcessor.streamsProperties(config);
        assertThat(p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);

        // The premise: the sub-topology the tasks run has one source, of one topic. A second input
        // would need max.task.idle.ms to order records across partitions.
        TopologyDescription topology;
        try (ProcessorHarness harness = new ProcessorHarness()) {
            topology = TablestreamTopology.build(harness.settings).describe();
        }
        List<Set<String>> sources = topology.subtopologies().stream()
                .flatMap(s -> s.nodes().stream())
                .filter(n -> n instanceof TopologyDescription.Source)
                .map(n -> ((TopologyDescription.Source) n).topicSet())
                .toList();
        assertThat(sources).hasSize(1);
        assertThat(sources.get(0)).hasSize(1);
    }

    @Test
    void anOverrideStillWins() {
        StreamProcessorConfig config = TestProcessorConfig.of("127.0.0.1:9092", "t", Path.of("/tmp/unused"))
                .withOverrides(Map.of(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "0"));
        assertThat(StreamProcessor.streamsProperties(config).get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo("0");
    }

    @Test
    void tasksProducersGatherOutputsForLessThanACommitIntervalUnlessOverridden() {
        StreamProcessorConfig config = TestProcessorConfig.of("127.0.0.1:9092", "t", Path.of("/tmp/unused"));
        String linger = StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG);
        Properties p = StreamProcessor.streamsProperties(config);
        // a commit sends whatever is left: a linger as long as the commit interval would gather nothing more
        assertThat(p.get(linger)).isEqualTo(StreamProcessor.TASK_PRODUCER_LINGER.toMillis());
        assertThat(StreamProcessor.TASK_PRODUCER_LINGER).isLessThan(config.commitInterval());
        assertThat(StreamProcessor.streamsProperties(config.withOverrides(Map.of(linger, "2"))).get(linger)).isEqualTo("2");
    }

    @Test
    void theTransactionTimeoutIsTheProducersSettingElseKafkaStreamsDefault() {
        StreamProcessorConfig config = TestProcessorConfig.of("127.0.0.1:9092", "t", Path.of("/tmp/unused"));
        assertThat(StreamProcessor.transactionTimeout(StreamProcessor.streamsProperties(config))).isEqualTo(Duration.ofSeconds(10));
        StreamProcessorConfig set = config.withOverrides(
                Map.of(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 20_000));
        assertThat(StreamProcessor.transactionTimeout(StreamProcessor.streamsProperties(set))).isEqualTo(Duration.ofSeconds(20));
    }
}
