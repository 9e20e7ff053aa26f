package io.tablestream.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EntityKeyTest {
    @Test
    void ordersByTableThenPartitionKeyThenRowKeyOrdinally() {
        assertThat(EntityKey.of(1, "z", "z")).isLessThan(EntityKey.of(2, "", ""));
        assertThat(EntityKey.of(1, "a", "\uFFFF")).isLessThan(EntityKey.of(1, "ab", ""));
        assertThat(EntityKey.of(1, "a", "B")).isLessThan(EntityKey.of(1, "a", "a"));
        assertThat(EntityKey.of(1, "\uD800\uDC00", "")).isLessThan(EntityKey.of(1, "\uE000", ""));
        assertThat(EntityKey.of(1, "a", "b")).isEqualByComparingTo(EntityKey.of(1, "a", "b"));
    }

    @Test
    void rejectsANegativeTableIdAndMissingKeys() {
        assertThatThrownBy(() -> EntityKey.of(-1, "a", "b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EntityKey.of(1, null, "b")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> EntityKey.of(1, "a", null)).isInstanceOf(NullPointerException.class);
    }
}
