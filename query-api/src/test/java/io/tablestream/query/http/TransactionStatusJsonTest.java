package io.tablestream.query.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TransactionStatus;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmDateTime;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransactionStatusJsonTest {

    @Test
    void writesTheStatusAsDocumentedWithAcceptedAtAsAnIsoTime() {
        TransactionStatus status = new TransactionStatus("tx1", "devstoreaccount1",
                EdmDateTime.of(Instant.parse("2026-11-24T12:00:00.46Z")), List.of(
                new TransactionStatus.Part("Current", "emp", 1, TransactionStatus.PartState.APPLIED, null, 1),
                new TransactionStatus.Part("Archive", "emp", 1, TransactionStatus.PartState.FAILED,
                        new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "exists", 0), 1)));

        String json = new String(TransactionStatusJson.write(status), StandardCharsets.UTF_8);

        assertThat(json).isEqualTo("{\"TransactionId\":\"tx1\",\"State\":\"PartiallyApplied\","
                + "\"AcceptedAt\":\"2026-11-24T12:00:00.4600000Z\",\"Parts\":["
                + "{\"Table\":\"Current\",\"PartitionKey\":\"emp\",\"Operations\":1,\"State\":\"Applied\",\"Reports\":1},"
                + "{\"Table\":\"Archive\",\"PartitionKey\":\"emp\",\"Operations\":1,\"State\":\"Failed\",\"Reports\":1,"
                + "\"Error\":{\"Code\":\"EntityAlreadyExists\",\"Message\":\"exists\",\"OperationIndex\":0}}]}");
    }
}
