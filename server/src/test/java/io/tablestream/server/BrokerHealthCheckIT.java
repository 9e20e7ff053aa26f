package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import org.junit.jupiter.api.Test;

/** The brokers' health check of compose.yaml passes against a real broker (the test broker). */
@KafkaTest
class BrokerHealthCheckIT {
    @Test
    void passesAgainstARealBroker(KafkaCluster kafka) throws Exception {
        String address = kafka.bootstrapServers().split(",")[0];
        String host = address.substring(0, address.lastIndexOf(':'));
        String port = address.substring(address.lastIndexOf(':') + 1);
        ComposeFileTest.readComposeFile();
        String command = ComposeFileTest.brokerHealthCheck("kafka-1").replace("127.0.0.1/9092", host + "/" + port);

        assertThat(ComposeFileTest.runWithin(10, command)).isZero();
    }
}
