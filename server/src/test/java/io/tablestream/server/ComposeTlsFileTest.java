package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * compose.tls.yaml, the override that runs compose.yaml over HTTPS, cannot be run here (no Docker
 * engine), so it is checked: it changes only Tablestream instances of compose.yaml, every one of
 * them (a cluster speaks HTTPS throughout or not at all), with real settings whose files are in the
 * directory it mounts, and a health check that asks over HTTPS on the port the instance serves.
 */
class ComposeTlsFileTest {
    private static Map<String, Map<String, Object>> base;
    private static Map<String, Map<String, Object>> tls;

    @BeforeAll
    static void readComposeFiles() throws IOException {
        base = services(Path.of("..", "compose.yaml"));
        tls = services(Path.of("..", "compose.tls.yaml"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> services(Path file) throws IOException {
        assertThat(file).exists();
        return (Map<String, Map<String, Object>>) new ObjectMapper(new YAMLFactory())
                .readValue(Files.readString(file), Map.class).get("services");
    }

    @Test
    void coversEveryTablestreamInstanceAndNothingElse() {
        List<String> instances = base.keySet().stream()
                .filter(s -> String.valueOf(base.get(s).get("image")).startsWith("tablestream")).sorted().toList();
        assertThat(tls.keySet()).containsExactlyInAnyOrderElementsOf(instances);
    }

    @Test
    @SuppressWarnings("unchecked")
    void setsCertificateKeyAndTrustFromTheMountedDirectory() {
        tls.forEach((service, override) -> {
            Map<String, Object> env = (Map<String, Object>) override.get("environment");
            env.keySet().forEach(name -> assertThat(ServerSettings.isKnownEnvironmentVariable(name))
                    .as("%s sets %s, a setting the server reads", service, name).isTrue());
            List<String> volumes = (List<String>) override.get("volumes");
            String mounted = volumes.stream().filter(v -> v.startsWith("./tls:")).findFirst()
                    .map(v -> v.split(":")[1]).orElseThrow(() -> new AssertionError(service + " mounts no ./tls"));
            for (Setting<String> file : List.of(ServerSettings.TLS_CERT_FILE, ServerSettings.TLS_KEY_FILE,
                    ServerSettings.TLS_TRUST_FILE)) {
                assertThat(String.valueOf(env.get(file.environmentVariable()))).as("%s %s", service, file.name())
                        .startsWith(mounted + "/");
            }
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthChecksAskOverHttpsOnTheInstancesPort() {
        tls.forEach((service, override) -> {
            Object port = ((Map<String, Object>) base.get(service).get("environment")).get("TABLESTREAM_PORT");
            List<String> test = (List<String>) ((Map<String, Object>) override.get("healthcheck")).get("test");
            assertThat(String.join(" ", test)).contains("https://127.0.0.1:" + port + "/_health/ready");
        });
    }
}
