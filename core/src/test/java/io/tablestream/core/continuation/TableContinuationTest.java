package io.tablestream.core.continuation;

import static io.tablestream.core.continuation.EntityContinuationTest.assertInvalidInput;
import static io.tablestream.core.continuation.EntityContinuationTest.raw;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.TableName;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableContinuationTest {
    @ParameterizedTest
    @ValueSource(strings = {"abc", "mytable", "MyTable1", "Z12", "a23456789012345678901234567890123456789012345678901234567890123"})
    void roundTripsAnyTableName(String name) {
        TableContinuation c = TableContinuation.at(TableName.of(name));
        assertThat(c.nextTableNameToken()).matches("1![0-9]+![A-Za-z0-9_-]+");
        assertThat(TableContinuation.fromQuery(c.nextTableNameToken())).contains(c);
    }

    @Test
    void writesTheServiceShape() {
        assertThat(TableContinuation.at(TableName.of("mytable")).nextTableNameToken()).isEqualTo("1!10!bXl0YWJsZQ");
    }

    @Test
    void isAbsentWhenTheRequestCarriesNoToken() {
        assertThat(TableContinuation.fromQuery(null)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ab", "tables", "TABLES", "1abc", "a-bc", "a_bc", "abc ", "\u00E9abc"})
    void rejectsATokenThatCarriesNoTableName(String notAName) {
        assertInvalidInput(() -> TableContinuation.fromQuery(raw(notAName.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void rejectsATokenThatCarriesATooLongName() {
        assertInvalidInput(() -> TableContinuation.fromQuery(raw("a".repeat(64).getBytes(StandardCharsets.US_ASCII))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "mytable", "1!7!bXl0YWJsZQ", "1!10!bXl0YWJsZQ==", "2!10!bXl0YWJsZQ", "1!10!bXl0YWJsZQ;x"})
    void rejectsAMalformedToken(String token) {
        assertInvalidInput(() -> TableContinuation.fromQuery(token));
    }
}
