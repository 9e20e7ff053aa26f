package io.tablestream.processor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A processor in its own JVM that dies on the spot — {@code Runtime.halt}, no shutdown hooks, no
 * commit — after applying a given number of entity changes: a crash in the middle of a batch.
 * Args: bootstrap servers, topic prefix, state dir, partitions, changes to apply before dying.
 */
public final class HaltingProcessorMain {
    private HaltingProcessorMain() {
    }

    public static void main(String[] args) throws Exception {
        int haltAfter = Integer.parseInt(args[4]);
        AtomicInteger applied = new AtomicInteger();
        StreamProcessorConfig config = TestProcessorConfig.of(args[0], args[1], Path.of(args[2]))
                .withPartitions(Integer.parseInt(args[3]));
        StreamProcessor.start(config, Duration.ofSeconds(90), change -> {
            if (applied.incrementAndGet() >= haltAfter) {
                System.out.println("HALTING after " + applied.get() + " changes");
                System.out.flush();
                Runtime.getRuntime().halt(137);
            }
        });
        System.out.println("RUNNING");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
