package io.tablestream.localfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedBrokerAddressTest {

    @Test
    void readsBackWhatItKeptAndNothingWhenNothingWasKept(@TempDir Path dir) {
        assertThat(EmbeddedBrokerAddress.read(dir)).isEmpty();

        new EmbeddedBrokerAddress(19092, 19093).write(dir);

        assertThat(EmbeddedBrokerAddress.read(dir)).contains(new EmbeddedBrokerAddress(19092, 19093));
        assertThat(EmbeddedBrokerAddress.read(dir).orElseThrow().bootstrapServers("127.0.0.1"))
                .isEqualTo("127.0.0.1:19092");
        assertThat(dir.resolve(EmbeddedBrokerAddress.FILE_NAME + ".tmp")).doesNotExist();
    }

    @Test
    void aDamagedFileIsRefusedNamingTheFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(EmbeddedBrokerAddress.FILE_NAME), "broker.port=x\n");

        assertThatThrownBy(() -> EmbeddedBrokerAddress.read(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(EmbeddedBrokerAddress.FILE_NAME);
    }

    @Test
    void aReplacedFileHoldsTheNewEntriesOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("x.properties");
        PropertiesFile.replace(file, Map.of("a", "1", "b", "2"), "first");
        PropertiesFile.replace(file, Map.of("a", "3"), "second");

        assertThat(PropertiesFile.read(file)).contains(Map.of("a", "3"));
        assertThat(PropertiesFile.read(dir.resolve("none.properties"))).isEmpty();
    }
}
