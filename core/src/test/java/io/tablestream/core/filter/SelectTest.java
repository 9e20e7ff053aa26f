package io.tablestream.core.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class SelectTest {

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "  ", "*", " * ", "Name,*"})
    void selectsEverythingWhenAbsentBlankOrStar(String text) {
        Select select = Select.parse(text);
        assertThat(select.isAll()).isTrue();
        assertThat(select.includes("Anything")).isTrue();
        assertThat(select.includes("PartitionKey")).isTrue();
    }

    @Test
    void listsTrimmedNamesInTheOrderAskedEachOnce() {
        assertThat(Select.parse(" Name , Age,PartitionKey,Name ").names())
                .containsExactly("Name", "Age", "PartitionKey");
        assertThat(Select.parse("TableName").names()).containsExactly("TableName");
        assertThat(Select.parse("_x,Ünïcode,Timestamp,RowKey").names())
                .containsExactly("_x", "Ünïcode", "Timestamp", "RowKey");
    }

    @ParameterizedTest(name = "{0}  ==>  {1}")
    @CsvSource(delimiterString = "==>", quoteCharacter = '"', textBlock = """
            "Name,"             ==> Syntax error at position 5
            ",Name"             ==> Syntax error at position 0
            "Name,,Age"         ==> Syntax error at position 5
            "Name, ,Age"        ==> Syntax error at position 6
            "Na me"             ==> Syntax error at position 0
            "Name, 1abc"        ==> Syntax error at position 6
            "a.b"               ==> Syntax error at position 0
            "Name,Age-1"        ==> Syntax error at position 5
            "Name eq 'x'"       ==> Syntax error at position 0
            "**"                ==> Syntax error at position 0
            """)
    void rejectsAnEmptyOrInvalidNameNamingWhere(String text, String messageStart) {
        assertThatThrownBy(() -> Select.parse(text))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT))
                .hasMessageStartingWith(messageStart + " of $select: ");
    }

    @Test
    void rejectsANameLongerThan255Characters() {
        assertThat(Select.parse("a".repeat(255)).names()).hasSize(1);
        assertThatThrownBy(() -> Select.parse("a".repeat(256)))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT));
    }

    @Test
    void keepsOnlyTheSelectedPropertiesInSelectionOrder() {
        Map<String, EdmValue> properties = new LinkedHashMap<>();
        properties.put("A", EdmInt32.of(1));
        properties.put("B", EdmString.of("b"));
        properties.put("C", EdmInt32.of(3));
        Entity entity = Entity.of("pk", "rk", properties);

        Entity selected = Select.parse("C,A,Missing").applyTo(entity);

        assertThat(List.copyOf(selected.properties().keySet())).containsExactly("C", "A");
        assertThat(selected.partitionKey()).isEqualTo("pk");
        assertThat(selected.rowKey()).isEqualTo("rk");
        assertThat(Select.parse("C,A,Missing").names()).contains("Missing");
    }

    @Test
    void returnsTheEntityUnchangedWhenEverythingIsSelected() {
        Entity entity = Entity.of("pk", "rk", Map.of("A", EdmInt32.of(1)));
        assertThat(Select.all().applyTo(entity)).isSameAs(entity);
    }

    @Test
    void tellsWhetherASystemPropertyIsSelected() {
        Select select = Select.parse("RowKey,Name");
        assertThat(select.includes("RowKey")).isTrue();
        assertThat(select.includes("PartitionKey")).isFalse();
        assertThat(select.includes("Timestamp")).isFalse();
    }
}
