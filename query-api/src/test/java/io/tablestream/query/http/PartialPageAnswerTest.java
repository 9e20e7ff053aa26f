package io.tablestream.query.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.Entity;
import io.tablestream.query.plan.Page;
import io.tablestream.query.plan.PartialPages;
import io.tablestream.query.routing.Instance;
import io.tablestream.query.routing.InstanceClient;
import io.tablestream.query.routing.Replica;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * How the merging instance reads another instance's answer to a partial read: a partial page is
 * merged; a refusal (4xx with its code) is the request's; anything else — a failure there, a body
 * that is not a partial page (such as one compressed for a client) — makes that copy unavailable, so
 * the partitions are read from another copy (and the client gets 503 ServerBusy if none serves),
 * never a 500.
 */
class PartialPageAnswerTest {
    private static final Replica PEER = new Replica(new Instance("127.0.0.1", 10003), false);
    private static final String PARTIAL = PartialPages.CONTENT_TYPE;

    @Test
    void aPartialPageIsRead() {
        Page page = new Page(List.of(entity("p", "r")), Optional.empty());

        Page read = ScatterGather.partialPage(PEER, answer(200, PARTIAL, null, PartialPages.encode(page)));

        assertThat(read.entities()).extracting(Entity::rowKey).containsExactly("r");
    }

    @Test
    void aCompressedPartialPageIsAnUnexpectedAnswerNotA500() throws IOException {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
            gz.write(PartialPages.encode(new Page(List.of(entity("p", "r")), Optional.empty())));
        }

        assertThatThrownBy(() -> ScatterGather.partialPage(PEER, answer(200, PARTIAL, null, zipped.toByteArray())))
                .isInstanceOf(ReplicaUnavailable.class).hasMessageContaining("unexpected answer");
    }

    @Test
    void anotherContentTypeIsAnUnexpectedAnswer() {
        assertThatThrownBy(() -> ScatterGather.partialPage(PEER, answer(200, "application/json", null,
                "{\"value\":[]}".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(ReplicaUnavailable.class).hasMessageContaining("Content-Type application/json");
    }

    @Test
    void aFailureThereIsAnUnexpectedAnswer() {
        assertThatThrownBy(() -> ScatterGather.partialPage(PEER, answer(500, "application/json", "InternalError",
                new byte[0])))
                .isInstanceOf(ReplicaUnavailable.class).hasMessageContaining("500 InternalError");
    }

    @Test
    void aRefusalThereIsThisRequestsError() {
        assertThatThrownBy(() -> ScatterGather.partialPage(PEER, answer(403, "application/json",
                "AuthorizationPermissionMismatch", new byte[0])))
                .isInstanceOfSatisfying(TableServiceException.class, e -> assertThat(e.errorCode())
                        .isEqualTo(ErrorCode.AUTHORIZATION_PERMISSION_MISMATCH));
    }

    private static InstanceClient.Answer answer(int status, String contentType, String errorCode, byte[] body) {
        Map<String, List<String>> headers = errorCode == null ? Map.of("Content-Type", List.of(contentType))
                : Map.of("Content-Type", List.of(contentType), "x-ms-error-code", List.of(errorCode));
        return new InstanceClient.Answer(status, headers, body);
    }

    private static Entity entity(String pk, String rk) {
        return Entity.of(pk, rk, Map.of("S", EdmString.of("v")))
                .withVersion(EdmDateTime.of(Instant.parse("2026-11-27T00:00:00Z")));
    }
}
