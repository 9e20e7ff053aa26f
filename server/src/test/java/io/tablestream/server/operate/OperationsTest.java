package io.tablestream.server.operate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where the console is on by default: a loopback bind only. */
class OperationsTest {
    @ParameterizedTest
    @CsvSource({"127.0.0.1, true", "127.1.2.3, true", "localhost, true", "::1, true", "0.0.0.0, false", "::, false",
            "10.1.2.3, false", "no-such-host.invalid, false"})
    void theConsoleIsOnByDefaultOnlyOnALoopbackBind(String host, boolean loopback) {
        assertThat(Operations.isLoopback(host)).isEqualTo(loopback);
    }
}
