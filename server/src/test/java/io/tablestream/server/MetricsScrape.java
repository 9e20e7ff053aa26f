package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.server.TablestreamServerExtension.RunningServer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Test vocabulary for {@code /_metrics}: a scrape, and one series' value in it. */
public final class MetricsScrape {
    private MetricsScrape() {
    }

    /** The server's metrics in Prometheus' text format (unsigned, as a scraper asks). */
    public static String scrape(RunningServer server) {
        return RawTableClient.to(server).requestAt("GET", "/_metrics").unsigned().send().body();
    }

    /** The value of {@code series} (a name with its labels, as written in the scrape) in a fresh scrape. */
    public static double value(RunningServer server, String series) {
        return value(scrape(server), series);
    }

    /** The value of {@code series} in {@code scrape}; fails when the scrape does not hold it. */
    public static double value(String scrape, String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(scrape);
        assertThat(m.find()).as("series %s in the scrape", series).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
