package io.tablestream.core.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.KeyOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class OrderByTest {

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" ", "PartitionKey", "PartitionKey asc", "PartitionKey,RowKey", "PartitionKey asc, RowKey ASC"})
    void keyOrderIsServedForAnyQuery(String text) {
        OrderBy orderBy = OrderBy.parse(text);

        assertThat(orderBy.orderFor(false)).isEqualTo(KeyOrder.ASCENDING);
        assertThat(orderBy.orderFor(true)).isEqualTo(KeyOrder.ASCENDING);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "RowKey desc|DESCENDING",
        "RowKey  DESC |DESCENDING",
        "PartitionKey,RowKey desc|DESCENDING",
        "PartitionKey desc,RowKey desc|DESCENDING",
        "RowKey|ASCENDING",
        "RowKey asc|ASCENDING",
        "PartitionKey desc|ASCENDING",
    })
    void withinOnePartitionRowKeyDecides(String text, KeyOrder expected) {
        assertThat(OrderBy.parse(text).orderFor(true)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"RowKey desc", "RowKey", "PartitionKey desc", "PartitionKey, RowKey desc"})
    void acrossPartitionsOnlyKeyOrderIsServed(String text) {
        OrderBy orderBy = OrderBy.parse(text);

        assertThatThrownBy(() -> orderBy.orderFor(false))
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_QUERY_PARAMETER_VALUE);
                    assertThat(e.getMessage()).contains("$orderby").contains("PartitionKey eq");
                });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Score|Score|false",
        "Score asc|Score|false",
        "Score DESC|Score|true",
        "rowkey desc|rowkey|true",
    })
    void anotherPropertyOrdersAloneInEitherDirection(String text, String property, boolean descending) {
        OrderBy orderBy = OrderBy.parse(text);

        assertThat(orderBy.byProperty()).contains(new OrderBy.Item(property, descending));
        assertThat(orderBy.orderFor(false)).isEqualTo(KeyOrder.ASCENDING);
        assertThat(OrderBy.parse("RowKey desc").byProperty()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Timestamp desc|Ordering by 'Timestamp'",
        "Na-me|Ordering by 'Na-me'",
        "Name,Age|orders a query alone",
        "Name desc,RowKey|orders a query alone",
        "PartitionKey,Name|orders a query alone",
        "RowKey sideways|'sideways' is not a direction",
        "RowKey desc extra|not an ordering term",
        "RowKey,|not an ordering term",
        "RowKey,RowKey desc|RowKey appears twice",
        "RowKey,PartitionKey|PartitionKey must come before RowKey",
    })
    void refusesWhatItCannotServeSayingWhy(String text, String why) {
        assertThatThrownBy(() -> OrderBy.parse(text))
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_QUERY_PARAMETER_VALUE);
                    assertThat(e.getMessage()).contains(why).contains("Supported:");
                });
    }
}
