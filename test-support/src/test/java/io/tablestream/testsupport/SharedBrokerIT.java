package io.tablestream.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Runs two test classes in one JUnit execution (in this JVM, as failsafe would) and checks that they
 * got the same broker, and that the broker stopped when the execution ended.
 */
class SharedBrokerIT {

    @Test
    void twoTestClassesShareOneBrokerThatStopsWhenTheRunEnds() {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(FirstUser.class), selectClass(SecondUser.class))
                .execute();

        results.testEvents().assertStatistics(stats -> stats.started(3).succeeded(3));
        List<Map<String, String>> seen = results.allEvents().reportingEntryPublished().stream()
                .map(event -> event.getRequiredPayload(ReportEntry.class).getKeyValuePairs())
                .collect(Collectors.toList());
        assertThat(seen).hasSize(3);
        Set<String> addresses = seen.stream().map(entry -> entry.get("bootstrapServers")).collect(Collectors.toSet());
        assertThat(addresses).hasSize(1);
        Set<String> classes = seen.stream().map(entry -> entry.get("class")).collect(Collectors.toSet());
        assertThat(classes).containsExactlyInAnyOrder("FirstUser", "SecondUser");

        if (seen.get(0).get("origin").equals(KafkaCluster.Origin.EMBEDDED.name())) {
            String address = addresses.iterator().next();
            assertThatThrownBy(() -> connect(address)).isInstanceOf(IOException.class);
        }
    }

    private static void connect(String hostAndPort) throws IOException {
        int colon = hostAndPort.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(hostAndPort.substring(0, colon),
                    Integer.parseInt(hostAndPort.substring(colon + 1))), 2_000);
        }
    }

    private static void report(TestReporter reporter, Class<?> testClass, KafkaCluster cluster) {
        reporter.publishEntry(Map.of(
                "class", testClass.getSimpleName(),
                "bootstrapServers", cluster.bootstrapServers(),
                "origin", cluster.origin().name()));
    }

    @KafkaTest
    static class FirstUser {
        @Test
        void one(KafkaCluster cluster, TestReporter reporter) {
            report(reporter, FirstUser.class, cluster);
        }

        @Test
        void two(KafkaCluster cluster, TestReporter reporter) {
            report(reporter, FirstUser.class, cluster);
        }
    }

    @KafkaTest
    static class SecondUser {
        @Test
        void one(KafkaCluster cluster, TestReporter reporter) {
            report(reporter, SecondUser.class, cluster);
        }
    }
}
