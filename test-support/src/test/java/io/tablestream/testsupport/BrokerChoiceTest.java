package io.tablestream.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.testsupport.KafkaCluster.Origin;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BrokerChoiceTest {

    private static BrokerChoice choose(String environment, String systemProperties) {
        return BrokerChoice.from(parse(environment)::get, parse(systemProperties)::get);
    }

    /** "A=1;B=2" as a map; blank means nothing set. */
    private static Map<String, String> parse(String settings) {
        Map<String, String> map = new HashMap<>();
        if (settings != null && !settings.isBlank()) {
            for (String pair : settings.split(";")) {
                String[] kv = pair.split("=", 2);
                map.put(kv[0], kv[1]);
            }
        }
        return map;
    }

    @ParameterizedTest(name = "env [{0}] props [{1}] -> {2}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "-                                                       | -                                   | EMBEDDED",
            "TABLESTREAM_TEST_KAFKA=embedded                         | -                                   | EMBEDDED",
            "TABLESTREAM_TEST_KAFKA=testcontainers                   | -                                   | TESTCONTAINERS",
            "TABLESTREAM_TEST_KAFKA=TestContainers                   | -                                   | TESTCONTAINERS",
            "-                                                       | tablestream.test.kafka=testcontainers | TESTCONTAINERS",
            "TABLESTREAM_TEST_KAFKA=testcontainers                   | tablestream.test.kafka=embedded     | EMBEDDED",
            "TABLESTREAM_TEST_KAFKA=                                 | -                                   | EMBEDDED",
            "KAFKA_BOOTSTRAP_SERVERS=kafka:9092                      | -                                   | EXTERNAL",
            "KAFKA_BOOTSTRAP_SERVERS=kafka:9092;TABLESTREAM_TEST_KAFKA=testcontainers | -                  | EXTERNAL",
            "KAFKA_BOOTSTRAP_SERVERS=                                | -                                   | EMBEDDED",
    })
    void choosesTheBrokerFromEnvironmentAndSystemProperties(String environment, String properties, Origin expected) {
        assertThat(choose(environment, properties).origin()).isEqualTo(expected);
    }

    @Test
    void passesTheExternalAddressOnAsGiven() {
        assertThat(choose("KAFKA_BOOTSTRAP_SERVERS= b1:9092,b2:9092 ", "").externalBootstrapServers())
                .isEqualTo("b1:9092,b2:9092");
    }

    @Test
    void letsAnImageBeNamedForTheContainer() {
        assertThat(choose("TABLESTREAM_TEST_KAFKA_IMAGE=apache/kafka-native:4.1.0", "").containerImage())
                .contains("apache/kafka-native:4.1.0");
        assertThat(choose("", "").containerImage()).isEqualTo(Optional.empty());
    }

    @Test
    void rejectsAnUnknownMode() {
        assertThatThrownBy(() -> choose("TABLESTREAM_TEST_KAFKA=docker", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("docker")
                .hasMessageContaining("testcontainers");
    }
}
