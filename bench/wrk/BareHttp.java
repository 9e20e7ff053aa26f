import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The floor under every request of the server: {@code GET /_health/live} answered with the same
 * small JSON body by a bare Jetty 12 handler ({@code jetty}) or by one Javalin route ({@code javalin}),
 * on the server's thread pool settings (250 threads, 8 kept), and nothing else. Run with the server's
 * classpath: {@code java -cp <classpath> bench/wrk/BareHttp.java jetty|javalin <port>}; it serves until
 * killed.
 */
public final class BareHttp {
    private static final String BODY = "{\"status\":\"UP\",\"checks\":{\"processor\":{\"status\":\"UP\",\"detail\":\"RUNNING\"}}}";

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[1]);
        QueuedThreadPool pool = new QueuedThreadPool(250, 8);
        if (args[0].equals("jetty")) {
            Server server = new Server(pool);
            ServerConnector connector = new ServerConnector(server);
            connector.setHost("127.0.0.1");
            connector.setPort(port);
            server.addConnector(connector);
            server.setHandler(new Handler.Abstract() {
                @Override
                public boolean handle(Request request, Response response, Callback callback) {
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                    Content.Sink.write(response, true, BODY, callback);
                    return true;
                }
            });
            server.start();
            server.join();
        } else {
            Javalin.create(config -> {
                config.startup.showJavalinBanner = false;
                config.jetty.host = "127.0.0.1";
                config.jetty.port = port;
                config.jetty.threadPool = pool;
                config.routes.addHttpHandler(HandlerType.findOrCreate("GET"), "/_health/live",
                        ctx -> ctx.contentType("application/json").result(BODY));
            }).start();
        }
    }
}
