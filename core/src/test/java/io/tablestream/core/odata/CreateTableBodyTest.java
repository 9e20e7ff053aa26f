package io.tablestream.core.odata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CreateTableBodyTest {

    @Test
    void readsTheTableNameIgnoringOtherMembers() {
        CreateTableBody body = read("{\"odata.type\":\"x\",\"TableName\":\"mytable\",\"Other\":{\"a\":[1]}}");
        assertThat(body).isEqualTo(new CreateTableBody("mytable", OptionalInt.empty()));
    }

    @Test
    void readsTheTimeToLiveExtension() {
        assertThat(read("{\"TableName\":\"t1x\",\"TTLInSeconds\":3600}").ttlInSeconds()).hasValue(3600);
        assertThat(read("{\"TableName\":\"t1x\",\"TTLInSeconds\":null}").ttlInSeconds()).isEmpty();
    }

    @Test
    void leavesAMissingNameToTheNameRules() {
        assertThat(read("{}").tableName()).isNull();
        assertThat(read("{\"TableName\":null}").tableName()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"TableName\":5}|INVALID_INPUT",
            "{\"TableName\":\"a\",\"TableName\":\"b\"}|DUPLICATE_PROPERTIES_SPECIFIED",
            "{\"TableName\":\"abc\",\"TTLInSeconds\":\"60\"}|INVALID_INPUT",
            "{\"TableName\":\"abc\",\"TTLInSeconds\":1.5}|INVALID_INPUT",
            "{\"TableName\":\"abc\",\"TTLInSeconds\":2147483648}|INVALID_INPUT",
            "[\"abc\"]|INVALID_INPUT",
            "{\"TableName\":\"abc\"|INVALID_INPUT",
            "{\"TableName\":\"abc\"} {}|INVALID_INPUT"})
    void rejectsAMalformedBody(String body, ErrorCode expected) {
        assertThatThrownBy(() -> read(body))
                .isInstanceOfSatisfying(TableServiceException.class, e -> assertThat(e.errorCode()).isEqualTo(expected));
    }

    private static CreateTableBody read(String json) {
        return ODataJsonReader.readCreateTable(json.getBytes(StandardCharsets.UTF_8));
    }
}
