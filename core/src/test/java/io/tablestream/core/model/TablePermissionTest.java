package io.tablestream.core.model;

import static io.tablestream.core.model.TablePermission.ADD;
import static io.tablestream.core.model.TablePermission.DELETE;
import static io.tablestream.core.model.TablePermission.READ;
import static io.tablestream.core.model.TablePermission.UPDATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TablePermissionTest {
    @Test
    void readsEachLetterAsItsPermission() {
        assertThat(TablePermission.parse("r")).containsExactly(READ);
        assertThat(TablePermission.parse("a")).containsExactly(ADD);
        assertThat(TablePermission.parse("u")).containsExactly(UPDATE);
        assertThat(TablePermission.parse("d")).containsExactly(DELETE);
        assertThat(TablePermission.parse("raud")).containsExactly(READ, ADD, UPDATE, DELETE);
    }

    @Test
    void readsLettersInAnyOrderAsTheSameSet() {
        assertThat(TablePermission.parse("dura")).isEqualTo(TablePermission.parse("raud"));
    }

    @Test
    void readsTheEmptyStringAsNoPermission() {
        assertThat(TablePermission.parse("")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"w", "l", "R", "rX", " r", "r,a", "p"})
    void rejectsALetterThatIsNotATablePermission(String letters) {
        assertThatThrownBy(() -> TablePermission.parse(letters))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a table permission");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rr", "rar", "raudd"})
    void rejectsALetterGivenTwice(String letters) {
        assertThatThrownBy(() -> TablePermission.parse(letters))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than once");
    }

    @Test
    void returnsASetCallersCannotChange() {
        Set<TablePermission> set = TablePermission.parse("r");
        assertThatThrownBy(() -> set.add(ADD)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void writesSymbolsInCanonicalOrder() {
        assertThat(TablePermission.symbols(EnumSet.of(DELETE, READ, UPDATE))).isEqualTo("rud");
        assertThat(TablePermission.symbols(EnumSet.noneOf(TablePermission.class))).isEmpty();
        assertThat(READ.symbol()).isEqualTo('r');
    }
}
