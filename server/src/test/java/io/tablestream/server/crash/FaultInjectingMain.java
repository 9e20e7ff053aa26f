package io.tablestream.server.crash;

import io.tablestream.server.ServerConfig;
import io.tablestream.server.TablestreamServer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server as {@link io.tablestream.server.Main} runs it (settings from the environment), with one
 * fault a test can trigger from outside: the stream thread that applies an entity whose RowKey
 * starts with {@link #KILL_PREFIX} dies on the spot — once per such RowKey, so the replacement
 * thread, replaying the task's uncommitted commands, applies it.
 */
public final class FaultInjectingMain {
    public static final String KILL_PREFIX = "kill-stream-thread-";

    private FaultInjectingMain() {
    }

    public static void main(String[] args) {
        Set<String> killedOn = ConcurrentHashMap.newKeySet();
        TablestreamServer server = TablestreamServer.start(ServerConfig.load(null), change -> {
            if (change.rowKey().startsWith(KILL_PREFIX) && killedOn.add(change.rowKey())) {
                throw new IllegalStateException("Injected fault: the stream thread applying " + change.rowKey()
                        + " dies");
            }
        }, Duration.ZERO);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "shutdown"));
    }
}
