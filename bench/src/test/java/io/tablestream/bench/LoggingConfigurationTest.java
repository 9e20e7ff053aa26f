package io.tablestream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoggingConfigurationTest {

    /** Logback takes the first of several and warns; the benchmarks' own is the one meant. */
    @Test
    void theBenchmarksClasspathHoldsOneLogbackConfiguration() throws IOException {
        List<URL> found = Collections.list(getClass().getClassLoader().getResources("logback.xml"));

        assertThat(found).hasSize(1);
        assertThat(found.get(0).toString()).contains("/bench/");
    }
}
