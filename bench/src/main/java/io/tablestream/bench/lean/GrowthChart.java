package io.tablestream.bench.lean;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The growth benchmark's results ({@code GROWTH <size> <figure> <value> <unit> [p50 <ms> p99 <ms> ...]}
 * lines, the last of each size and figure counting) as a markdown table on stdout and an SVG chart:
 * one small panel per cost, entities on a logarithmic axis, so a reader sees each curve.
 * Usage: {@code GrowthChart <results.txt> <chart.svg>}.
 */
public final class GrowthChart {
    /** A panel: its title, unit, and the series it draws (figure name, and which value of its line). */
    private record Panel(String title, String unit, List<Series> series) {
    }

    private record Series(String label, String figure, String field) {
    }

    private static final List<Panel> PANELS = List.of(
            new Panel("Load and rebuild", "entities/s", List.of(new Series("load", "load", "value"),
                    new Series("rebuild", "rebuild", "rate"))),
            new Panel("Point GET, 16 in flight", "ms", List.of(new Series("p50", "point-get", "p50"),
                    new Series("p99", "point-get", "p99"))),
            new Panel("100-row range query, 4 in flight", "ms", List.of(new Series("p50", "range-100", "p50"),
                    new Series("p99", "range-100", "p99"))),
            new Panel("Full scan", "entities/s", List.of(new Series("scan", "scan", "value"))),
            new Panel("Memory (RSS)", "MiB", List.of(new Series("measured", "rss", "value"),
                    new Series("after load", "rss-after-load", "value"))),
            new Panel("Disk per entity", "bytes", List.of(new Series("broker", "disk-broker-per-entity", "value"),
                    new Series("RocksDB", "disk-rocksdb-per-entity", "value"))),
            new Panel("Restart after kill -9", "s", List.of(new Series("to ready", "restart-after-kill", "value"))),
            new Panel("$count of the table", "s", List.of(new Series("whole table", "count", "value"))));

    private GrowthChart() {
    }

    public static void main(String[] args) throws IOException {
        // size → figure → field → value
        Map<Long, Map<String, Map<String, Double>>> results = new TreeMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 4 || !f[0].equals("GROWTH")) {
                continue;
            }
            String figure = f[2].startsWith("scan-first-") || f[2].equals("full-scan") ? "scan" : f[2];
            Map<String, Double> fields = new LinkedHashMap<>();
            fields.put("value", Double.parseDouble(f[3]));
            for (int i = 5; i + 1 < f.length; i++) {
                if (f[i].equals("p50") || f[i].equals("p99") || f[i].equals("cpu_ms_per_op")) {
                    fields.put(f[i], Double.parseDouble(f[i + 1]));
                }
            }
            if (figure.equals("rebuild")) {
                fields.put("rate", Double.parseDouble(f[1]) / fields.get("value"));
            }
            results.computeIfAbsent(Long.parseLong(f[1]), k -> new TreeMap<>()).put(figure, fields);
        }
        System.out.print(table(results));
        Files.writeString(Path.of(args[1]), svg(results));
        System.err.println("chart written to " + args[1]);
    }

    static String table(Map<Long, Map<String, Map<String, Double>>> results) {
        StringBuilder out = new StringBuilder("| entities | load (entities/s) | RSS (MiB) | broker + RocksDB bytes/entity"
                + " | point GET ops/s (p50/p99 ms) | 100-row range ops/s (p50/p99 ms) | full scan (entities/s)"
                + " | $count (s) | restart after kill -9 (s) | rebuild (s, entities/s) |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<Long, Map<String, Map<String, Double>>> e : results.entrySet()) {
            Map<String, Map<String, Double>> r = e.getValue();
            out.append(String.format(Locale.ROOT, "| %,d | %s | %s | %s + %s | %s | %s | %s | %s | %s | %s |%n",
                    e.getKey(), v(r, "load", "value", "%,.0f"), v(r, "rss", "value", "%,.0f"),
                    v(r, "disk-broker-per-entity", "value", "%,.0f"), v(r, "disk-rocksdb-per-entity", "value", "%,.0f"),
                    latency(r, "point-get"), latency(r, "range-100"), v(r, "scan", "value", "%,.0f"),
                    v(r, "count", "value", "%.1f"), v(r, "restart-after-kill", "value", "%.1f"),
                    v(r, "rebuild", "value", "%.1f") + ", " + v(r, "rebuild", "rate", "%,.0f")));
        }
        return out.toString();
    }

    private static String latency(Map<String, Map<String, Double>> r, String figure) {
        return v(r, figure, "value", "%,.0f") + " (" + v(r, figure, "p50", "%.2f") + "/" + v(r, figure, "p99", "%.2f")
                + ")";
    }

    private static String v(Map<String, Map<String, Double>> r, String figure, String field, String format) {
        Double value = r.getOrDefault(figure, Map.of()).get(field);
        return value == null ? "–" : String.format(Locale.ROOT, format, value);
    }

    private static final String[] COLOURS = {"#1f77b4", "#d62728"};

    static String svg(Map<Long, Map<String, Map<String, Double>>> results) {
        int columns = 4;
        int w = 260;
        int h = 190;
        int rows = (PANELS.size() + columns - 1) / columns;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
                        + " font-size=\"11\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
                columns * w, rows * h + 20));
        s.append(String.format(Locale.ROOT, "<text x=\"8\" y=\"%d\" fill=\"#555\">Tablestream, one server: cost by table"
                + " size (entities, logarithmic axis)</text>%n", rows * h + 14));
        TreeSet<Long> sizes = new TreeSet<>(results.keySet());
        double minX = Math.log10(sizes.isEmpty() ? 1 : sizes.first());
        double maxX = Math.log10(sizes.isEmpty() ? 10 : sizes.last());
        if (maxX - minX < 1e-9) {
            minX -= 0.5;
            maxX += 0.5;
        }
        for (int i = 0; i < PANELS.size(); i++) {
            Panel p = PANELS.get(i);
            int ox = (i % columns) * w + 45;
            int oy = (i / columns) * h + 25;
            int pw = w - 65;
            int ph = h - 65;
            double maxY = 0;
            for (Series se : p.series()) {
                for (long size : sizes) {
                    Double v = results.get(size).getOrDefault(se.figure(), Map.of()).get(se.field());
                    if (v != null) {
                        maxY = Math.max(maxY, v);
                    }
                }
            }
            maxY = maxY <= 0 ? 1 : maxY * 1.15;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s (%s)</text>%n", ox - 35,
                    oy - 8, escape(p.title()), escape(p.unit())));
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>%n", ox,
                    oy + ph, ox + pw, oy + ph));
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>%n", ox,
                    oy, ox, oy + ph));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">%s</text>%n",
                    ox - 3, oy + 4, number(maxY)));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">0</text>%n",
                    ox - 3, oy + ph));
            for (long size : sizes) {
                double x = ox + (Math.log10(size) - minX) / (maxX - minX) * pw;
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>%n",
                        x, oy + ph + 14, number(size)));
            }
            for (int k = 0; k < p.series().size(); k++) {
                Series se = p.series().get(k);
                List<String> points = new ArrayList<>();
                for (long size : sizes) {
                    Double v = results.get(size).getOrDefault(se.figure(), Map.of()).get(se.field());
                    if (v == null) {
                        continue;
                    }
                    double x = ox + (Math.log10(size) - minX) / (maxX - minX) * pw;
                    double y = oy + ph - v / maxY * ph;
                    points.add(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
                    s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", x, y,
                            COLOURS[k % COLOURS.length]));
                    s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">%s</text>%n",
                            x, y - 6, COLOURS[k % COLOURS.length], number(v)));
                }
                if (points.size() > 1) {
                    s.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>%n",
                            COLOURS[k % COLOURS.length], String.join(" ", points)));
                }
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>%n", ox + 5 + k * 70,
                        oy + ph + 30, COLOURS[k % COLOURS.length], escape(se.label())));
            }
        }
        return s.append("</svg>\n").toString();
    }

    private static String number(double v) {
        if (v >= 1_000_000) {
            return String.format(Locale.ROOT, "%.3gM", v / 1_000_000);
        }
        if (v >= 10_000) {
            return String.format(Locale.ROOT, "%.3gk", v / 1_000);
        }
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
