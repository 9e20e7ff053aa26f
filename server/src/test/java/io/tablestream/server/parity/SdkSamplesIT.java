package io.tablestream.server.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the sample scenarios of the Python ({@code azure-data-tables} 12.4.2, Debian's
 * {@code python3-azure}) and JavaScript ({@code @azure/data-tables} 13.3.2) SDKs in
 * {@code sdk-samples/} against the test server. An SDK whose runtime is missing here is skipped
 * with the reason printed ({@code sdk-samples/install.sh} installs both where it can); the
 * JavaScript SDK is installed from npm on first use when npm is present.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class SdkSamplesIT {
    private static final Path SAMPLES = Path.of("").toAbsolutePath().getParent().resolve("sdk-samples");
    private static final long RUN_TIMEOUT_SECONDS = 240;

    @Test
    void pythonSdkSamplesPass(RunningServer server) throws Exception {
        String python = null;
        for (String candidate : List.of("python3", "/usr/bin/python3")) {
            if (exitCode(List.of(candidate, "-c", "import azure.data.tables"), SAMPLES, 30) == 0) {
                python = candidate;
                break;
            }
        }
        skipUnless(python != null, "python: no python3 with azure-data-tables here (Debian: apt-get install"
                + " python3-azure, or sdk-samples/install.sh)");

        assertAllPass(run(List.of(python, "run_samples.py"), SAMPLES.resolve("python"), server));
    }

    @Test
    void javascriptSdkSamplesPass(RunningServer server) throws Exception {
        skipUnless(exitCode(List.of("node", "--version"), SAMPLES, 30) == 0, "js: node is not installed here");
        Path js = SAMPLES.resolve("js");
        if (!Files.isDirectory(js.resolve("node_modules/@azure/data-tables"))) {
            int npm = exitCode(List.of("npm", "install", "--no-audit", "--no-fund", "--no-package-lock",
                    "--loglevel=error"), js, 180);
            skipUnless(npm == 0, "js: @azure/data-tables could not be installed with npm (exit " + npm + ")");
        }

        assertAllPass(run(List.of("node", "run_samples.mjs"), js, server));
    }

    private static void skipUnless(boolean condition, String reason) {
        if (!condition) {
            System.out.println("SdkSamplesIT skipped: " + reason);
        }
        Assumptions.assumeTrue(condition, reason);
    }

    private record Run(int exitCode, String output) {
    }

    private static void assertAllPass(Run run) {
        System.out.println(run.output());
        assertThat(run.exitCode()).as("exit code; output:%n%s", run.output()).isZero();
        assertThat(run.output()).as("output").containsPattern("(?m)^[1-9]\\d* passed, 0 failed$")
                .doesNotContain("FAIL ");
    }

    private static Run run(List<String> command, Path dir, RunningServer server) throws Exception {
        Path log = Files.createTempFile("sdk-samples", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().put("TABLES_CONNECTION_STRING", server.connectionString());
            Process p = pb.start();
            boolean ended = p.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly().waitFor();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            return new Run(ended ? p.exitValue() : -1, ended ? output
                    : output + "\n(stopped after " + RUN_TIMEOUT_SECONDS + " s)");
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static int exitCode(List<String> command, Path dir, long timeoutSeconds) {
        try {
            Process p = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
