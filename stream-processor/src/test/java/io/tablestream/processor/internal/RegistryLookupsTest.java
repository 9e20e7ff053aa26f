package io.tablestream.processor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RegistryLookupsTest {
    private final AtomicLong generation = new AtomicLong();
    private final AtomicInteger reads = new AtomicInteger();

    @Test
    void servesAKeptValueUntilTheRegistryChanges() {
        RegistryLookups lookups = new RegistryLookups(generation::get, 100);

        assertThat(lookups.get("t", () -> read("v1"))).isEqualTo("v1");
        assertThat(lookups.get("t", () -> read("never read"))).isEqualTo("v1");
        assertThat(reads).hasValue(1);

        generation.incrementAndGet();
        assertThat(lookups.get("t", () -> read("v2"))).isEqualTo("v2");
        assertThat(reads).hasValue(2);
    }

    @Test
    void keepsNothingReadWhileTheRegistryChanged() {
        RegistryLookups lookups = new RegistryLookups(generation::get, 100);

        assertThat(lookups.get("t", () -> {
            generation.incrementAndGet(); // a change lands while the store is read
            return read("maybe old");
        })).isEqualTo("maybe old");
        assertThat(lookups.get("t", () -> read("current"))).isEqualTo("current");
        assertThat(reads).hasValue(2);
    }

    @Test
    void startsAgainWhenFull() {
        RegistryLookups lookups = new RegistryLookups(generation::get, 2);
        lookups.get("a", () -> read("a"));
        lookups.get("b", () -> read("b"));
        lookups.get("c", () -> read("c"));

        assertThat(lookups.get("c", () -> read("c again"))).isEqualTo("c");
        assertThat(lookups.get("a", () -> read("a again"))).isEqualTo("a again");
    }

    private String read(String value) {
        reads.incrementAndGet();
        return value;
    }
}
