package io.tablestream.server.operate;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LogLevelRuleTest {
    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> seen = new ListAppender<>();
    private Logger controller;
    private Logger other;

    @BeforeEach
    void logThroughARuleForOneMessage() {
        LogLevelRule heartbeat = rule("org.apache.kafka.controller.ReplicationControlManager",
                "processExpiredBrokerHeartbeat", null);
        LogLevelRule outOfOrder = rule("kafka.server.ReplicaManager", "Error processing append operation",
                "OutOfOrderSequenceException");
        context.addTurboFilter(heartbeat);
        context.addTurboFilter(outOfOrder);
        logAtInfoInto(context, seen);
        controller = context.getLogger("org.apache.kafka.controller.ReplicationControlManager");
        other = context.getLogger("kafka.server.ReplicaManager");
    }

    /** {@code context}'s root logger at INFO, into {@code appender}. */
    private static void logAtInfoInto(LoggerContext context, ListAppender<ILoggingEvent> appender) {
        appender.setContext(context);
        appender.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(appender);
    }

    private LogLevelRule rule(String logger, String message, String exception) {
        LogLevelRule rule = new LogLevelRule();
        rule.setContext(context);
        rule.setLogger(logger);
        rule.setMessage(message);
        rule.setException(exception);
        rule.setLevel("INFO");
        rule.start();
        return rule;
    }

    @Test
    void logsTheKnownMessageOnceAtItsLevelAndAsOneLine() {
        controller.error("processExpiredBrokerHeartbeat: controller event queue overloaded. Timed out heartbeat from broker {}.", 2);

        assertThat(seen.list).hasSize(1);
        assertThat(seen.list.get(0).getLevel()).isEqualTo(Level.INFO);
        assertThat(seen.list.get(0).getFormattedMessage()).isEqualTo(
                "processExpiredBrokerHeartbeat: controller event queue overloaded. Timed out heartbeat from broker 2.");
        assertThat(seen.list.get(0).getLoggerName()).isEqualTo("org.apache.kafka.controller.ReplicationControlManager");
    }

    @Test
    void matchesTheExceptionAmongTheCausesAndLogsItsMessageInsteadOfItsTrace() {
        Exception outOfOrder = new IllegalStateException("append failed",
                new org.apache.kafka.common.errors.OutOfOrderSequenceException("Invalid sequence number"));
        other.error("Error processing append operation on partition t-0", outOfOrder);
        other.error("Error processing append operation on partition t-1", new IllegalStateException("disk"));

        assertThat(seen.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.INFO, Level.ERROR);
        assertThat(seen.list.get(0).getThrowableProxy()).isNull();
        assertThat(seen.list.get(0).getFormattedMessage()).contains("t-0").contains("Invalid sequence number");
        assertThat(seen.list.get(1).getThrowableProxy()).isNotNull();
    }

    @Test
    void matchesATextTheMessageContains() {
        LogLevelRule concurrent = rule("org.apache.kafka.clients.producer.internals.Sender", "Got error produce response",
                null);
        concurrent.setContains("Error: CONCURRENT_TRANSACTIONS");
        context.addTurboFilter(concurrent);
        Logger sender = context.getLogger("org.apache.kafka.clients.producer.internals.Sender");

        sender.warn("[Producer clientId=p-1, transactionalId=t-1] Got error produce response with correlation id {} on"
                + " topic-partition {}, retrying ({} attempts left). Error: {}", 7, "t-0", 9, "CONCURRENT_TRANSACTIONS");
        sender.warn("Got error produce response with correlation id {} on topic-partition {}, retrying ({} attempts left)."
                + " Error: {}", 8, "t-0", 9, "NOT_ENOUGH_REPLICAS");

        assertThat(seen.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.INFO, Level.WARN);
    }

    @Test
    void severalRulesInOneFilterActAsTheyDidAlone() {
        LoggerContext together = new LoggerContext();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        LogLevelRules rules = new LogLevelRules();
        rules.setContext(together);
        rules.addRule(rule("org.apache.kafka.controller.ReplicationControlManager", "processExpiredBrokerHeartbeat", null));
        rules.addRule(rule("kafka.server.ReplicaManager", "Error processing append operation", "OutOfOrderSequenceException"));
        rules.addRule(new LogLevelRule()); // no logger nor message: it does not start, and is left out
        rules.start();
        together.addTurboFilter(rules);
        logAtInfoInto(together, logged);
        Logger replicas = together.getLogger("kafka.server.ReplicaManager");

        replicas.error("Error processing append operation on partition t-0",
                new org.apache.kafka.common.errors.OutOfOrderSequenceException("Invalid sequence number"));
        replicas.error("Something else went wrong");

        assertThat(rules.isStarted()).isTrue();
        assertThat(replicas.isDebugEnabled()).isFalse();
        assertThat(replicas.isInfoEnabled()).isTrue();
        assertThat(logged.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.INFO, Level.ERROR);
    }

    @Test
    void leavesEveryOtherMessageAlone() {
        controller.error("Something else went wrong");
        controller.info("processExpiredBrokerHeartbeat at its own level already");

        assertThat(seen.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.ERROR, Level.INFO);
    }
}
