package io.tablestream.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyLayoutTest {

    @ParameterizedTest
    @CsvSource({"3000, 30", "100000, 1000", "1000000, 1000", "1001, 7", "50, 1", "1, 1"})
    void spreadsEverySizeOverItsPartitionsWithoutLosingARow(long size, int partitions) {
        KeyLayout layout = new KeyLayout(size, partitions);

        long total = 0;
        for (int p = 0; p < partitions; p++) {
            total += layout.rowsIn(p);
            assertThat(layout.rowsIn(p)).isBetween(size / partitions, size / partitions + 1);
        }

        assertThat(total).isEqualTo(size);
    }

    @ParameterizedTest
    @CsvSource({"3000, 30", "100000, 1000", "1000000, 1000", "50, 1", "150, 1"})
    void givesOnePartitionPerHundredEntitiesUpToAThousand(long size, int expected) {
        assertThat(KeyLayout.defaultPartitions(size)).isEqualTo(expected);
    }

    @Test
    void recognisesOnlyTheLoadedKeys() {
        KeyLayout layout = new KeyLayout(3000, 30);

        assertThat(layout.loadedRowIndex("load-0003", "r00000007")).isEqualTo(7);
        assertThat(layout.loadedRowIndex("load-0003", "r00000100")).isEqualTo(-1);
        assertThat(layout.loadedRowIndex("load-0030", "r00000001")).isEqualTo(-1);
        assertThat(layout.loadedRowIndex("insert-0003", "r00000001")).isEqualTo(-1);
        assertThat(layout.loadedRowIndex("load-00x3", "r00000001")).isEqualTo(-1);
        assertThat(layout.loadedRowIndex("load-0003", "r0000001")).isEqualTo(-1);
    }

    @Test
    void writesKeysWhoseStringOrderIsTheirNumericOrder() {
        assertThat(KeyLayout.rowKey(9)).isLessThan(KeyLayout.rowKey(10));
        assertThat(KeyLayout.partitionKey("load", 99)).isLessThan(KeyLayout.partitionKey("load", 100));
        assertThat(KeyLayout.index(KeyLayout.partitionKey("batch8", 42), "batch8")).isEqualTo(42);
        assertThat(KeyLayout.rowIndex(KeyLayout.rowKey(12345))).isEqualTo(12345);
    }

    @Test
    void rejectsMorePartitionsThanEntities() {
        assertThatThrownBy(() -> new KeyLayout(10, 11)).isInstanceOf(IllegalArgumentException.class);
    }
}
