package io.tablestream.query.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.command.TransactionStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The status of a cross-partition transaction as JSON:
 *
 * <pre>{@code
 * {"TransactionId": "…", "State": "Pending|Applied|PartiallyApplied|Failed", "AcceptedAt": "…",
 *  "Parts": [{"Table": "Current", "PartitionKey": "emp", "Operations": 1, "State": "Applied"},
 *            {"Table": "Archive", "PartitionKey": "emp", "Operations": 1, "State": "Failed",
 *             "Error": {"Code": "EntityAlreadyExists", "Message": "…", "OperationIndex": 0}}]}
 * }</pre>
 */
final class TransactionStatusJson {
    private static final JsonFactory JSON = new JsonFactory();

    private TransactionStatusJson() {
    }

    static byte[] write(TransactionStatus status) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("TransactionId", status.transactionId());
            g.writeStringField("State", name(status.state().name()));
            g.writeStringField("AcceptedAt", status.acceptedAt().toIso());
            g.writeArrayFieldStart("Parts");
            for (TransactionStatus.Part p : status.parts()) {
                g.writeStartObject();
                g.writeStringField("Table", p.table());
                g.writeStringField("PartitionKey", p.partitionKey());
                g.writeNumberField("Operations", p.operations());
                g.writeStringField("State", name(p.state().name()));
                g.writeNumberField("Reports", p.reports());
                if (p.failure() != null) {
                    g.writeObjectFieldStart("Error");
                    g.writeStringField("Code", p.failure().code().code());
                    g.writeStringField("Message", p.failure().message());
                    if (p.failure().operationIndex() != null) {
                        g.writeNumberField("OperationIndex", p.failure().operationIndex());
                    }
                    g.writeEndObject();
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** PARTIALLY_APPLIED → PartiallyApplied. */
    private static String name(String constant) {
        StringBuilder b = new StringBuilder();
        for (String word : constant.split("_")) {
            b.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return b.toString();
    }
}
