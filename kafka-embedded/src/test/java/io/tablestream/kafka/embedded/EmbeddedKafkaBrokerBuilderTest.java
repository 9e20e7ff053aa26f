package io.tablestream.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

class EmbeddedKafkaBrokerBuilderTest {
    private static final Path DATA = Path.of("/var/lib/tablestream/kafka");

    static final String[] RESERVED = EmbeddedKafkaBroker.RESERVED_PROPERTIES.toArray(String[]::new);

    @ParameterizedTest
    @FieldSource("RESERVED")
    void refusesToOverrideWhatTheEmbeddedBrokerOwns(String name) {
        EmbeddedKafkaBroker.Builder builder = EmbeddedKafkaBroker.builder(DATA);

        assertThatThrownBy(() -> builder.brokerProperty(name, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(name);
    }

    @Test
    void refusesOnePortForBothListeners() {
        EmbeddedKafkaBroker.Builder builder = EmbeddedKafkaBroker.builder(DATA).brokerPort(9092).controllerPort(9092);

        assertThatThrownBy(builder::start).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("9092");
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 65_536})
    void rejectsPortsOutOfRange(int port) {
        EmbeddedKafkaBroker.Builder builder = EmbeddedKafkaBroker.builder(DATA);

        assertThatThrownBy(() -> builder.brokerPort(port)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.controllerPort(port)).isInstanceOf(IllegalArgumentException.class);
    }
}
