package io.tablestream.processor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.processor.StoreMemory;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;

class BoundedRocksDbMemoryTest {

    @Test
    void theBudgetInTheStreamsConfigurationChoosesTheSharedCache() {
        StoreMemory small = new StoreMemory(32L * 1024 * 1024, 8L * 1024 * 1024);
        Map<String, Object> configs = new HashMap<>(BoundedRocksDbMemory.settings(small));

        assertThat(BoundedRocksDbMemory.budget(configs)).isEqualTo(small);
        assertThat(BoundedRocksDbMemory.budget(Map.of())).isEqualTo(StoreMemory.DEFAULT);
        assertThat(BoundedRocksDbMemory.shared(small)).isSameAs(BoundedRocksDbMemory.shared(BoundedRocksDbMemory.budget(configs)));
        assertThat(BoundedRocksDbMemory.shared(small)).isNotSameAs(BoundedRocksDbMemory.shared(StoreMemory.DEFAULT));
    }

    @Test
    void everyStoreOfABudgetIsChargedToItsCache() {
        StoreMemory budget = new StoreMemory(24L * 1024 * 1024, 4L * 1024 * 1024);
        try (Options options = new Options()) {
            options.setTableFormatConfig(new BlockBasedTableConfig());
            new BoundedRocksDbMemory().setConfig("s", options, new HashMap<>(BoundedRocksDbMemory.settings(budget)));
            assertThat(options.writeBufferManager()).isSameAs(BoundedRocksDbMemory.shared(budget).writeBuffers());
        }
    }

    @Test
    void refusesABudgetTooSmallOrAllMemtables() {
        assertThatThrownBy(() -> new StoreMemory(1024, 512)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StoreMemory(32L * 1024 * 1024, 32L * 1024 * 1024))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
