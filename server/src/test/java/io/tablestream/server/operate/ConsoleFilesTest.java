package io.tablestream.server.operate;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.tablestream.protocol.http.InternalAccess;
import io.tablestream.protocol.http.TableServiceEndpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The console's files over real HTTP: what is served, with which headers, and what "off" answers. */
class ConsoleFilesTest {
    private final HttpClient client = HttpClient.newHttpClient();
    private Javalin app;

    private void serve(boolean on) {
        TableServiceEndpoint endpoint = new TableServiceEndpoint((request, http) -> {
            throw new AssertionError("the console's files need no credentials");
        }, Map.of(), Clock.systemUTC())
                .internalEndpoint("/_console", InternalAccess.ANYONE, ConsoleFiles.redirect())
                .internalEndpoint(ConsoleFiles.PREFIX, InternalAccess.ANYONE, on ? new ConsoleFiles() : ConsoleFiles.off());
        app = Javalin.create(endpoint::install).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesThePageAndItsFilesWithTypesAPolicyAndRevalidation() throws Exception {
        serve(true);
        HttpResponse<String> page = get("/_console/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html;charset=utf-8");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'");
        assertThat(page.body()).contains("<script type=\"module\" src=\"console.js\">");
        for (String file : ConsoleFiles.FILES) {
            HttpResponse<String> r = get("/_console/" + file);
            assertThat(r.statusCode()).as(file).isEqualTo(200);
            assertThat(r.body()).as(file).isNotBlank();
        }
        assertThat(get("/_console/console.js").headers().firstValue("Content-Type")).hasValue("text/javascript;charset=utf-8");
        HttpResponse<String> charts = get("/_console/uPlot.iife.min.js");
        assertThat(charts.statusCode()).isEqualTo(200);
        assertThat(charts.body()).contains("uPlot");
        assertThat(charts.headers().firstValue("Content-Type")).hasValue("text/javascript;charset=utf-8");
        assertThat(get("/_console/uPlot.min.css").headers().firstValue("Content-Type")).hasValue("text/css;charset=utf-8");

        String etag = page.headers().firstValue("ETag").orElseThrow();
        assertThat(get("/_console/", "If-None-Match", etag).statusCode()).isEqualTo(304);
        assertThat(get("/_console").statusCode()).isEqualTo(301);
        assertThat(get("/_console/../pom.xml").statusCode()).isIn(400, 404);
        assertThat(get("/_console/logback.xml").statusCode()).isEqualTo(404);
    }

    @Test
    void whenOffItSaysHowToTurnItOn() throws Exception {
        serve(false);
        HttpResponse<String> r = get("/_console/");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).contains("console=on");
    }
}
