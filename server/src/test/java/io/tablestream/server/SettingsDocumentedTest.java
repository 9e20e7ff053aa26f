package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The settings tables of the README and docs/operations.md are written by hand for readers; this
 * holds them to the catalogue (ServerSettings): every setting or variable a table names exists, and
 * the default it shows is the catalogue's.
 */
class SettingsDocumentedTest {
    private static final Map<String, Setting<?>> BY_NAME =
            ServerSettings.ALL.stream().collect(Collectors.toMap(Setting::name, Function.identity()));
    private static final Map<String, Setting<?>> BY_VARIABLE =
            ServerSettings.ALL.stream().collect(Collectors.toMap(Setting::environmentVariable, Function.identity()));

    /** A table row's first two cells, the row's text for messages. */
    private record Row(String first, String second, String line) {
    }

    private static List<Row> rows(String file, String header) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", file));
        int at = lines.indexOf(header);
        assertThat(at).as("%s has the table %s", file, header).isNotNegative();
        List<Row> rows = new ArrayList<>();
        for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String[] cells = lines.get(i).split("\\|");
            rows.add(new Row(cells[1].strip(), cells[2].strip(), lines.get(i)));
        }
        assertThat(rows).as("rows of %s in %s", header, file).isNotEmpty();
        return rows;
    }

    /** How a table shows a default: {@code empty} for none, else the value (code quotes left out). */
    private static String shown(Object defaultValue) {
        String value = String.valueOf(defaultValue);
        return value.isEmpty() ? "empty" : value;
    }

    @Test
    void theReadmeVariablesAreSettingsWithTheDefaultsItShows() throws IOException {
        for (Row row : rows("README.md", "| variable | default | meaning |")) {
            // a row may name several variables that share one default (a certificate and its key)
            for (String variable : row.first().replace("`", "").split(",\\s*")) {
                Setting<?> setting = Optional.ofNullable(BY_VARIABLE.get(variable)).orElse(null);
                assertThat(setting).as("README names %s, a setting's variable", variable).isNotNull();
                assertThat(row.second().replace("`", "")).as(row.line()).isEqualTo(shown(setting.defaultValue()));
            }
        }
    }

    @Test
    void theOperationsSettingsAreSettingsWithTheDefaultsItShows() throws IOException {
        for (Row row : rows("docs/operations.md", "| setting | default | what it bounds |")) {
            String[] names = row.first().replace("`", "").split(",\\s*");
            String[] defaults = row.second().replace("`", "").split(",\\s*");
            assertThat(defaults).as(row.line()).hasSameSizeAs(names);
            for (int i = 0; i < names.length; i++) {
                Setting<?> setting = BY_NAME.get(names[i]);
                assertThat(setting).as("docs/operations.md names %s, a setting", names[i]).isNotNull();
                assertThat(defaults[i]).as(row.line()).isEqualTo(shown(setting.defaultValue()));
            }
        }
    }
}
