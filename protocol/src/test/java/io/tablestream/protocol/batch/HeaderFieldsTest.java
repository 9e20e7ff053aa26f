package io.tablestream.protocol.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HeaderFieldsTest {
    private final HeaderFields fields = HeaderFields.empty()
            .with("If-Match", "*")
            .with("Accept", "application/json")
            .with("if-match", "W/\"x\"");

    @Test
    void looksNamesUpWithoutRegardToCase() {
        assertThat(fields.first("IF-MATCH")).hasValue("*");
        assertThat(fields.contains("accept")).isTrue();
        assertThat(fields.first("Prefer")).isEmpty();
    }

    @Test
    void keepsEveryValueOfARepeatedNameInOrder() {
        assertThat(fields.all("If-Match")).containsExactly("*", "W/\"x\"");
        assertThat(fields.all("Prefer")).isEmpty();
    }

    @Test
    void keepsTheFieldsAsWrittenAndStaysUnchangedByWith() {
        HeaderFields more = fields.with("Prefer", "return-no-content");

        assertThat(fields.asList()).extracting(HeaderField::name).containsExactly("If-Match", "Accept", "if-match");
        assertThat(more.size()).isEqualTo(4);
        assertThat(fields.size()).isEqualTo(3);
        assertThat(HeaderFields.of(fields.asList())).isEqualTo(fields);
        assertThat(HeaderFields.of(List.of())).isEqualTo(HeaderFields.empty());
    }

    @Test
    void refusesNamesThatAreNotTokensAndValuesWithLineBreaks() {
        assertThatThrownBy(() -> HeaderField.of("Bad Name", "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeaderField.of("", "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeaderField.of("X", "a\nb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeaderField.of("X", "a\u007Fb")).isInstanceOf(IllegalArgumentException.class);
        assertThat(HeaderField.of("X", "tab\tand é").value()).isEqualTo("tab\tand é");
    }
}
