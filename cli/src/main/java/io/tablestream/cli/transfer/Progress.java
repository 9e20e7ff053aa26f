package io.tablestream.cli.transfer;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A progress line on the terminal: how many entities, the rate, and — when the total is known —
 * a bar, the share done and the time left. On a terminal it is redrawn in place four times a
 * second; otherwise (output to a file or a pipe) a line is printed every five seconds. The rate
 * is measured over the last few seconds, the time left from the average rate so far.
 */
public final class Progress implements AutoCloseable {
    /** How progress is shown. */
    public enum Style { BAR, LINES, NONE }

    private static final int BAR_WIDTH = 24;

    private final String label;
    private final LongSupplier done;
    private final LongSupplier total;
    private final long startedAt;
    private final long doneAtStart;
    private final PrintStream out;
    private final Style style;
    private final Thread thread;
    private volatile boolean running = true;
    private long lastDone;
    private long lastAt;
    private double rate;

    /**
     * @param done entities done so far (resumed ones included)
     * @param total the expected total, or a negative number while unknown
     */
    public Progress(String label, LongSupplier done, LongSupplier total, Style style, PrintStream out) {
        this.label = label;
        this.done = done;
        this.total = total;
        this.style = style;
        this.out = out;
        this.startedAt = System.nanoTime();
        this.doneAtStart = done.getAsLong();
        this.lastDone = doneAtStart;
        this.lastAt = startedAt;
        this.thread = new Thread(this::run, "progress");
        thread.setDaemon(true);
        if (style != Style.NONE) {
            thread.start();
        }
    }

    /** {@link Style#BAR} when the console is a terminal, else {@link Style#LINES}. */
    public static Style defaultStyle() {
        return System.console() != null ? Style.BAR : Style.LINES;
    }

    private void run() {
        long period = style == Style.BAR ? 250 : 5000;
        while (running) {
            try {
                TimeUnit.MILLISECONDS.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            if (running) {
                print(false);
            }
        }
    }

    private synchronized void print(boolean last) {
        long now = System.nanoTime();
        long d = done.getAsLong();
        double seconds = (now - lastAt) / 1e9;
        if (seconds > 0.2) {
            double instant = (d - lastDone) / seconds;
            rate = rate == 0 ? instant : 0.7 * rate + 0.3 * instant;
            lastDone = d;
            lastAt = now;
        }
        String line = line(d, total.getAsLong(), now, last);
        if (style == Style.BAR) {
            out.print("\r" + line + "\033[K" + (last ? "\n" : ""));
        } else {
            out.println(line);
        }
        out.flush();
    }

    String line(long d, long t, long now, boolean last) {
        double elapsed = (now - startedAt) / 1e9;
        double average = elapsed > 0 ? (d - doneAtStart) / elapsed : 0;
        StringBuilder b = new StringBuilder(label).append("  ");
        if (t >= 0) {
            double share = t == 0 ? 1 : Math.min(1, (double) d / t);
            int filled = (int) Math.round(share * BAR_WIDTH);
            b.append('[').append("#".repeat(filled)).append("-".repeat(BAR_WIDTH - filled)).append("] ")
                    .append(String.format(Locale.ROOT, "%3d%%  %,d/%,d", (int) (share * 100), d, t));
        } else {
            b.append(String.format(Locale.ROOT, "%,d", d));
        }
        b.append(String.format(Locale.ROOT, "  %,.0f/s", last ? average : rate));
        if (last) {
            b.append(String.format(Locale.ROOT, "  in %s", duration(elapsed)));
        } else if (t >= 0 && average > 0) {
            b.append("  ETA ").append(duration(Math.max(0, t - d) / average));
        }
        return b.toString();
    }

    static String duration(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** Stops redrawing and prints the final line (done, average rate, time taken). */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        if (style != Style.NONE) {
            print(true);
        }
    }
}
