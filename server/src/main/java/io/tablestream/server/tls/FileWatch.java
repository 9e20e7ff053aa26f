package io.tablestream.server.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads sets of files when their content changes, on one background thread, every interval.
 * Content, not dates, decides (the files are small): a certificate copied with its old date, or a
 * Kubernetes secret whose symbolic links were swapped, counts as changed. A reload that fails (a
 * certificate written before its key, a file half written) leaves what was loaded before in use
 * and is tried again at each check until it succeeds; each distinct failure is logged once.
 */
final class FileWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FileWatch.class);

    /** What to do with a set of files once their content changed; throws when they cannot be used. */
    @FunctionalInterface
    interface Reload {
        void run() throws RuntimeException;
    }

    private final class Watched {
        final String what;
        final List<Path> files;
        final Reload reload;
        List<byte[]> loaded;
        String lastFailure;

        Watched(String what, List<Path> files, Reload reload) {
            this.what = what;
            this.files = files;
            this.reload = reload;
            this.loaded = contents(files);
        }

        void check() {
            List<byte[]> now = contents(files);
            if (sameContents(now, loaded)) {
                return;
            }
            try {
                reload.run();
                loaded = now;
                lastFailure = null;
            } catch (RuntimeException e) {
                String failure = String.valueOf(e.getMessage());
                if (!failure.equals(lastFailure)) {
                    LOG.warn("{} changed but cannot be used; still using the previous one and checking again every"
                            + " {} ms: {}", what, interval.toMillis(), failure);
                    lastFailure = failure;
                }
            }
        }
    }

    private final Duration interval;
    private final List<Watched> watched = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService executor;

    FileWatch(Duration interval) {
        this.interval = interval;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tls-file-watch");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(this::checkAll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Calls {@code reload} whenever the content of one of {@code files} differs from when it was last
     * loaded (now, or by the last reload that succeeded).
     */
    void watch(String what, List<Path> files, Reload reload) {
        watched.add(new Watched(what, List.copyOf(files), reload));
    }

    /** Checks every set now (the background thread does so every interval). */
    void checkAll() {
        for (Watched w : watched) {
            try {
                w.check();
            } catch (RuntimeException e) {
                LOG.warn("Checking {} for changes failed", w.what, e);
            }
        }
    }

    private static List<byte[]> contents(List<Path> files) {
        List<byte[]> out = new ArrayList<>(files.size());
        for (Path f : files) {
            try {
                out.add(Files.readAllBytes(f));
            } catch (IOException e) {
                out.add(null); // missing or unreadable now: a change, which the reload will report
            }
        }
        return out;
    }

    private static boolean sameContents(List<byte[]> a, List<byte[]> b) {
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    @Override
    public String toString() {
        return "FileWatch" + watched.stream().map(w -> w.what).toList() + " every " + Objects.toString(interval);
    }
}
