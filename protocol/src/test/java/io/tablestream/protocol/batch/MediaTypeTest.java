package io.tablestream.protocol.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MediaTypeTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "multipart/mixed; boundary=batch_1                 | batch_1",
            "Multipart/Mixed;Boundary=batch_1                  | batch_1",
            "multipart/mixed ; boundary = batch_1 ;            | batch_1",
            "multipart/mixed; charset=utf-8; boundary=\"a b:c\" | a b:c",
            "multipart/mixed; boundary=\"q\\\"x\"              | q\"x",
            "multipart/mixed;; boundary=x; boundary=y          | x",
    })
    void readsTheBoundaryParameterQuotedOrNot(String value, String boundary) {
        Optional<MediaType> type = MediaType.parse(value);

        assertThat(type).hasValueSatisfying(t -> {
            assertThat(t.is("multipart", "mixed")).isTrue();
            assertThat(t.parameter("boundary")).hasValue(boundary);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "multipart", "multipart/", "/mixed", "multipart/mixed boundary=x",
            "multipart/mixed; boundary", "multipart/mixed; boundary=\"x", "multipart/mixed; =x", "multi part/mixed"})
    void refusesValuesThatAreNotMediaTypes(String value) {
        assertThat(MediaType.parse(value)).isEmpty();
    }
}
