package io.tablestream.bench.workload;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The measured workloads, in the order a run performs them: writes into their own partitions
 * first, then reads of the loaded table, then updates of loaded entities (last, so the scans see
 * the table as loaded).
 */
enum Workload {
    INSERT("insert", "ops/s", "sequential single inserts"),
    BATCH_1T("batch-1t", "entities/s", "transactions of 100 inserts, 1 thread"),
    BATCH_8T("batch-8t", "entities/s", "transactions of 100 inserts, 8 threads"),
    READ("read", "ops/s", "point reads, sequential"),
    READ_16T("read-16t", "ops/s", "point reads, 16 threads"),
    RANGE_QUERY("range-query", "ops/s", "100-row RowKey range in one partition"),
    PARTITION_SCAN("partition-scan", "ops/s", "one partition filtered on an Int32 property"),
    FULL_SCAN("full-scan", "entities/s", "whole table, paged; latency per page"),
    MERGE("merge", "ops/s", "single merges, sequential"),
    REPLACE("replace", "ops/s", "single replaces, sequential"),
    MIXED_200T("mixed-200t", "ops/s", "200 threads, each half point reads, half single writes (insert, upsert, merge)");

    private final String label;
    private final String unit;
    private final String description;

    Workload(String label, String unit, String description) {
        this.label = label;
        this.unit = unit;
        this.description = description;
    }

    String label() {
        return label;
    }

    String unit() {
        return unit;
    }

    String description() {
        return description;
    }

    /** {@code all}, or labels separated by commas. */
    static Set<Workload> parseList(String text) {
        if (text.equalsIgnoreCase("all")) {
            return EnumSet.allOf(Workload.class);
        }
        Set<Workload> chosen = EnumSet.noneOf(Workload.class);
        for (String part : text.split(",")) {
            String wanted = part.strip().toLowerCase(Locale.ROOT);
            if (wanted.isEmpty()) {
                continue;
            }
            Workload found = null;
            for (Workload w : values()) {
                if (w.label.equals(wanted)) {
                    found = w;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("unknown workload '" + part + "'; known: " + labels());
            }
            chosen.add(found);
        }
        return chosen;
    }

    static List<String> labels() {
        List<String> labels = new ArrayList<>();
        for (Workload w : values()) {
            labels.add(w.label);
        }
        return labels;
    }
}
