package io.tablestream.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

class TopicInstallerTest {

    @Test
    void asksAgainWhileAJustCreatedTopicIsNotKnownYet() throws Exception {
        AtomicInteger calls = new AtomicInteger();

        String described = TopicInstaller.untilTopicKnown(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new ExecutionException(new UnknownTopicOrPartitionException("not yet"));
            }
            return "commands";
        }, Duration.ofSeconds(10));

        assertThat(described).isEqualTo("commands");
        assertThat(calls).hasValue(3);
    }

    @Test
    void givesUpOnAnUnknownTopicOnceTheTimeIsUp() {
        AtomicInteger calls = new AtomicInteger();

        assertThatThrownBy(() -> TopicInstaller.untilTopicKnown(() -> {
            calls.incrementAndGet();
            throw new ExecutionException(new UnknownTopicOrPartitionException("never"));
        }, Duration.ofMillis(200))).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        assertThat(calls.get()).isBetween(2, 10);
    }

    @Test
    void failsAtOnceOnAnyOtherFailure() {
        AtomicInteger calls = new AtomicInteger();

        assertThatThrownBy(() -> TopicInstaller.untilTopicKnown(() -> {
            calls.incrementAndGet();
            throw new ExecutionException(new TopicAuthorizationException("no"));
        }, Duration.ofSeconds(10))).hasCauseInstanceOf(TopicAuthorizationException.class);
        assertThat(calls).hasValue(1);
    }
}
