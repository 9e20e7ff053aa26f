package io.tablestream.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ResponseHeadersTest {
    @Test
    void theDateIsTheSecondTheRequestArrivedInWhicheverSecondCameBefore() {
        assertThat(ResponseHeaders.date(Instant.parse("2026-11-27T22:10:05.900Z"))).isEqualTo("Fri, 27 Nov 2026 22:10:05 GMT");
        assertThat(ResponseHeaders.date(Instant.parse("2026-11-27T22:10:05.100Z"))).isEqualTo("Fri, 27 Nov 2026 22:10:05 GMT");
        assertThat(ResponseHeaders.date(Instant.parse("2026-11-27T22:10:06Z"))).isEqualTo("Fri, 27 Nov 2026 22:10:06 GMT");
        assertThat(ResponseHeaders.date(Instant.parse("2024-02-29T00:00:00Z"))).isEqualTo("Thu, 29 Feb 2024 00:00:00 GMT");
    }

    @Test
    void requestIdsAreDistinctVersion4Uuids() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String id = RequestContext.randomId();
            UUID uuid = UUID.fromString(id);
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(uuid.toString()).isEqualTo(id);
            ids.add(id);
        }
        assertThat(ids).hasSize(1000);
    }

    @Test
    void aVersionIsServedOrRefusedTheSameWhenSeenAgain() {
        for (int i = 0; i < 2; i++) {
            assertThat(ServiceVersion.isServed("2019-02-02")).isTrue();
            assertThat(ServiceVersion.isServed("2019-02-29")).isFalse();
            assertThat(ServiceVersion.isServed("2020-02-29")).isTrue();
            assertThat(ServiceVersion.isServed("2013-08-14")).isFalse();
            assertThat(ServiceVersion.isServed("2019-2-02x")).isFalse();
        }
    }
}
