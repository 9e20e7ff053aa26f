package io.tablestream.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableName;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/**
 * What a sync write whose outcome does not arrive is told, on a real broker with no processor
 * behind the log: each 503 says whether the write may still be applied.
 */
@KafkaTest
class KafkaCommandLogIT {

    @Test
    void aWriteOnTheLogWithoutAnOutcomeMayStillBeApplied(KafkaCluster kafka) throws Exception {
        String commands = createTopic(kafka, "commands");
        String outcomes = createTopic(kafka, "outcomes");
        try (KafkaCommandLog log = KafkaCommandLog.open(kafka.bootstrapServers(), commands, outcomes,
                "node-" + UUID.randomUUID(), 1024 * 1024, Map.of())) {

            assertThatThrownBy(() -> log.appendAndAwait(insert(log.instanceId()), Duration.ofMillis(500)).join())
                    .isInstanceOf(CompletionException.class).cause()
                    .isInstanceOfSatisfying(TableServiceException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY);
                        assertThat(e.getMessage()).contains("is on the command log (x-ms-session-token 0:0)",
                                "may still be applied", "409 EntityAlreadyExists").doesNotContain("accepted");
                    });
        }
    }

    @Test
    void aWriteTheLogNeverTookWasNotApplied(KafkaCluster kafka) throws Exception {
        String outcomes = createTopic(kafka, "outcomes");
        String missing = kafka.uniqueName("no-such-commands-topic");
        try (KafkaCommandLog log = KafkaCommandLog.open(kafka.bootstrapServers(), missing, outcomes,
                "node-" + UUID.randomUUID(), 1024 * 1024, Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 300))) {

            assertThatThrownBy(() -> log.appendAndAwait(insert(log.instanceId()), Duration.ofSeconds(30)).join())
                    .isInstanceOf(CompletionException.class).cause()
                    .isInstanceOfSatisfying(TableServiceException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY);
                        assertThat(e.getMessage()).contains("was not applied").doesNotContain("may still");
                    });
        }
    }

    private static EntityCommand insert(String replyTo) {
        return EntityCommand.single(new CommandHeader(UUID.randomUUID().toString(), "devstoreaccount1",
                        System.currentTimeMillis(), replyTo, "devstoreaccount1"), 1, TableName.of("Orders"), "p",
                EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of()));
    }

    private static String createTopic(KafkaCluster kafka, String base) throws Exception {
        String name = kafka.uniqueName(base);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get();
        }
        return name;
    }
}
