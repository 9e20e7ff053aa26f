package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AnsweringThreadPoolTest {

    @Test
    void runsAnAnswerOnAPoolThreadAndATaskItSubmitsAtOnceOnThatThread() throws Exception {
        AnsweringThreadPool pool = new AnsweringThreadPool(8, 2);
        pool.start();
        try {
            CompletableFuture<String[]> threads = new CompletableFuture<>();

            pool.answers().execute(() -> {
                String outer = Thread.currentThread().getName();
                String[] inner = new String[1];
                pool.answers().execute(() -> inner[0] = Thread.currentThread().getName());
                threads.complete(new String[] {outer, inner[0]}); // already set: it ran inline
            });

            String[] names = threads.get(5, TimeUnit.SECONDS);
            assertThat(names[0]).isNotEqualTo(Thread.currentThread().getName());
            assertThat(names[1]).isEqualTo(names[0]);
        } finally {
            pool.stop();
        }
    }

    /**
     * Two requests sent at once on one connection: the first answered asynchronously by an answer task,
     * the second (already read, waiting behind the first) then served by the thread that wrote the first
     * answer, not handed to another.
     */
    @Test
    void servesTheConnectionsNextRequestOnTheThreadThatAnsweredTheLastOne() throws Exception {
        AnsweringThreadPool pool = new AnsweringThreadPool(16, 4);
        CompletableFuture<String> answeredOn = new CompletableFuture<>();
        CompletableFuture<String> nextServedOn = new CompletableFuture<>();
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.jetty.threadPool = pool;
            config.jetty.port = 0;
            config.routes.get("/first", ctx -> ctx.future(() -> CompletableFuture
                    .runAsync(() -> { }, CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS, pool.answers()))
                    .thenRun(() -> {
                        answeredOn.complete(Thread.currentThread().getName());
                        ctx.result("first");
                    })));
            config.routes.get("/next", ctx -> {
                nextServedOn.complete(Thread.currentThread().getName());
                ctx.result("next");
            });
        });
        app.start();
        try (Socket socket = new Socket("127.0.0.1", app.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /first HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "GET /next HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answers = readAll(socket.getInputStream());

            assertThat(answers).contains("first", "next");
            assertThat(answers.indexOf("first")).isLessThan(answers.indexOf("next"));
            assertThat(nextServedOn.get(5, TimeUnit.SECONDS)).isEqualTo(answeredOn.get(5, TimeUnit.SECONDS));
        } finally {
            app.stop();
        }
    }

    private static String readAll(InputStream in) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(StandardCharsets.US_ASCII);
    }
}
