package io.tablestream.bench.workload;

/**
 * Where every entity of the benchmark table lives. Keys are fixed-width, so their string order is
 * their numeric order:
 * <ul>
 *   <li>the loaded table: {@code size} entities spread evenly over {@code partitions}
 *       PartitionKeys {@code load-0000}..; partition {@code i} holds RowKeys {@code r00000000}..
 *       {@code r<rowsIn(i) - 1>};</li>
 *   <li>each write workload writes its own family of partitions ({@code insert-0000}..,
 *       {@code batch1-0000}.., {@code batch8-0000}..), so the loaded rows stay as loaded and every
 *       written key follows from the number of operations done: single insert {@code k} goes to
 *       partition {@code k % partitions}, row {@code k / partitions}; transaction {@code k} to
 *       partition {@code k % partitions}, rows {@code (k / partitions) * 100} .. {@code + 99}.</li>
 * </ul>
 */
record KeyLayout(long size, int partitions) {
    static final int BATCH_SIZE = 100;
    static final String LOADED = "load";

    KeyLayout {
        if (size < 1 || partitions < 1 || partitions > 9999 || partitions > size) {
            throw new IllegalArgumentException("need 1 <= partitions <= min(size, 9999); got size " + size
                    + ", partitions " + partitions);
        }
    }

    /** One partition per 100 entities up to 1,000 partitions: 1,000 from 100,000 entities on. */
    static int defaultPartitions(long size) {
        return (int) Math.max(1, Math.min(1000, size / BATCH_SIZE));
    }

    static String partitionKey(String family, long index) {
        return String.format("%s-%04d", family, index);
    }

    static String rowKey(long index) {
        return String.format("r%08d", index);
    }

    String loadedPartition(int index) {
        return partitionKey(LOADED, index);
    }

    /** Rows of loaded partition {@code index}: the first {@code size % partitions} get one more. */
    long rowsIn(int index) {
        return size / partitions + (index < size % partitions ? 1 : 0);
    }

    long fewestRowsPerPartition() {
        return size / partitions;
    }

    /** The loaded row a key names, or -1 when the key is not one of the loaded table. */
    long loadedRowIndex(String partitionKey, String rowKey) {
        int p = index(partitionKey, LOADED);
        if (p < 0 || p >= partitions) {
            return -1;
        }
        long r = rowIndex(rowKey);
        return r >= 0 && r < rowsIn(p) ? r : -1;
    }

    /** The partition number of {@code partitionKey} if it is in {@code family}, else -1. */
    static int index(String partitionKey, String family) {
        if (partitionKey.length() != family.length() + 5 || !partitionKey.startsWith(family)
                || partitionKey.charAt(family.length()) != '-') {
            return -1;
        }
        return parseDigits(partitionKey, family.length() + 1);
    }

    static long rowIndex(String rowKey) {
        if (rowKey.length() != 9 || rowKey.charAt(0) != 'r') {
            return -1;
        }
        return parseDigits(rowKey, 1);
    }

    private static int parseDigits(String s, int from) {
        int value = 0;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
