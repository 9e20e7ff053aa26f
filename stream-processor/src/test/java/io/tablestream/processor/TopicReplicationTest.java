package io.tablestream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class TopicReplicationTest {
    @Test
    void givesThreeReplicasTwoInSyncOnAClusterOfThreeOrMore() {
        assertThat(TopicReplication.of((short) 0, Map.of(), 3)).isEqualTo(new TopicReplication((short) 3, 2));
        assertThat(TopicReplication.of((short) 0, Map.of(), 7)).isEqualTo(new TopicReplication((short) 3, 2));
    }

    @Test
    void givesAsManyReplicasAsThereAreBrokersOnASmallerCluster() {
        assertThat(TopicReplication.of((short) 0, Map.of(), 1)).isEqualTo(new TopicReplication((short) 1, 1));
        assertThat(TopicReplication.of((short) 0, Map.of(), 2)).isEqualTo(new TopicReplication((short) 2, 1));
    }

    @Test
    void keepsWhatIsConfigured() {
        assertThat(TopicReplication.of((short) 5, Map.of(TopicReplication.MIN_IN_SYNC_OVERRIDE, "3"), 3))
                .isEqualTo(new TopicReplication((short) 5, 3));
        assertThat(TopicReplication.of((short) 1, Map.of(), 3)).isEqualTo(new TopicReplication((short) 1, 1));
    }

    @Test
    void newTopicsAndTheChangelogsAreReplicatedAlike() {
        TopicReplication three = new TopicReplication((short) 3, 2);
        Topics topics = Topics.withPrefix("t");

        for (TopicDescriptor<?, ?> t : topics.all()) {
            NewTopic topic = t.newTopic(8, three);
            assertThat(topic.replicationFactor()).as(t.name()).isEqualTo((short) 3);
            assertThat(topic.configs()).as(t.name()).containsEntry("min.insync.replicas", "2");
        }
        StreamProcessorConfig config = TestProcessorConfig.of("127.0.0.1:9092", "t", Path.of("/tmp/unused"));
        assertThat(StreamProcessor.streamsProperties(config, three))
                .containsEntry(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3)
                .containsEntry(StreamsConfig.topicPrefix("min.insync.replicas"), "2");
    }
}
