package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A main class grows past 400 lines only for a reason its reader is told: the comment at its top
 * says why it is one class ("One class, over 400 lines: ..."). Read from the sources of every module
 * of the repository (this module's directory is one of them).
 */
class LargeClassesTest {
    private static final int LINES = 400;
    /** The line that declares the file's top-level type. */
    private static final Pattern TYPE = Pattern.compile(
            "^(public |final |abstract |sealed |non-sealed )*(class|record|interface|enum) .*");

    @Test
    void everyMainClassOverFourHundredLinesSaysAtItsTopWhyItIsOneClass() throws IOException {
        List<Path> large = new ArrayList<>();
        List<String> silent = new ArrayList<>();
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            for (Path sources : modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(sources)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        List<String> lines = Files.readAllLines(file);
                        if (lines.size() > LINES) {
                            large.add(file);
                            if (!saysWhy(lines)) {
                                silent.add(file.normalize() + " (" + lines.size() + " lines)");
                            }
                        }
                    }
                }
            }
        }
        assertThat(large).as("main classes over %d lines found (the sources were read)", LINES).isNotEmpty();
        assertThat(silent).as("main classes over %d lines without \"over %d lines\" and why at their top",
                LINES, LINES).isEmpty();
    }

    /** Whether the comment before the top-level type's declaration says why it is over the size. */
    private static boolean saysWhy(List<String> lines) {
        StringBuilder top = new StringBuilder();
        for (String line : lines) {
            if (TYPE.matcher(line).matches()) {
                break;
            }
            top.append(line.replaceFirst("^\\s*\\*", "").trim()).append(' ');
        }
        return top.toString().contains("over " + LINES + " lines:");
    }
}
