package io.tablestream.server.operate;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import ch.qos.logback.core.status.Status;
import java.net.URL;
import java.util.List;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The product's own logging configuration ({@code logback.xml}, what the server and the brokers of
 * {@code run-cluster.sh --brokers 3} log with) is read without a complaint, and its rules take
 * effect: Kafka's known protocol messages are not logged as WARN or ERROR, anything else still is.
 */
class ProductLoggingTest {
    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> seen = new ListAppender<>();

    @BeforeEach
    void configureAsTheProduct() throws Exception {
        URL configuration = getClass().getResource("/logback.xml");
        assertThat(configuration).as("the product's logback.xml").isNotNull();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(configuration);
        assertThat(context.getStatusManager().getCopyOfStatusList())
                .as("what logback said reading logback.xml")
                .allSatisfy(s -> assertThat(s.getLevel()).as(s.toString()).isLessThan(Status.WARN));
        seen.setContext(context);
        seen.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(seen);
    }

    @Test
    void anOutOfOrderBatchTheBrokerRefusesIsNotAnError() {
        context.getLogger("kafka.server.ReplicaManager").error(
                "[ReplicaManager broker=1] Error processing append operation on partition x:t-1",
                new OutOfOrderSequenceException("Invalid sequence number for producer 3 at offset 2"));

        assertThat(warningsAndErrors()).isEmpty();
    }

    @Test
    void aProducerRetryingAConcurrentTransactionOrAnOutOfOrderBatchIsNotAWarning() {
        Logger sender = context.getLogger("org.apache.kafka.clients.producer.internals.Sender");
        sender.warn("[Producer clientId=p, transactionalId=t] Got error produce response with correlation id {} on"
                + " topic-partition {}, retrying ({} attempts left). Error: {}", 368, "t-4", 2147483646,
                "CONCURRENT_TRANSACTIONS");
        sender.warn("[Producer clientId=p, transactionalId=t] Got error produce response with correlation id {} on"
                + " topic-partition {}, retrying ({} attempts left). Error: {}", 369, "t-1", 2147483646,
                "OUT_OF_ORDER_SEQUENCE_NUMBER");

        assertThat(warningsAndErrors()).isEmpty();
    }

    @Test
    void aControllerHeartbeatThatWaitedInTheQueueIsNotAnError() {
        context.getLogger("org.apache.kafka.controller.ReplicationControlManager").error(
                "processExpiredBrokerHeartbeat: controller event queue overloaded. Timed out heartbeat from broker {}.", 2);

        assertThat(warningsAndErrors()).isEmpty();
    }

    @Test
    void anyOtherErrorOfTheSameLoggersIsStillLogged() {
        context.getLogger("kafka.server.ReplicaManager").error(
                "[ReplicaManager broker=1] Error processing append operation on partition x:t-1",
                new NotLeaderOrFollowerException("not the leader"));
        context.getLogger("org.apache.kafka.clients.producer.internals.Sender").warn(
                "[Producer clientId=p] Got error produce response with correlation id {} on topic-partition {},"
                        + " retrying ({} attempts left). Error: {}", 1, "t-0", 5, "NOT_ENOUGH_REPLICAS");

        assertThat(warningsAndErrors()).hasSize(2);
    }

    @Test
    void theRulesAreOneTurboFilterThatLetsLevelChecksThrough() {
        // logback asks each turbo filter about every isDebugEnabled(): one filter is one call
        assertThat(context.getTurboFilterList()).singleElement().isInstanceOf(LogLevelRules.class);
        Logger sender = context.getLogger("org.apache.kafka.clients.producer.internals.Sender");
        assertThat(sender.isWarnEnabled()).isTrue();
        assertThat(sender.isDebugEnabled()).isFalse();
    }

    private List<ILoggingEvent> warningsAndErrors() {
        return seen.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
    }
}
