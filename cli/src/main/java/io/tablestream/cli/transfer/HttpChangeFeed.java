package io.tablestream.cli.transfer;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tablestream.client.TableServiceHttp;
import io.tablestream.client.TableServiceHttp.Answer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Follows a table's HTTP change feed ({@code GET /<table>()/$changes}, a Tablestream extension):
 * long polls from a cursor, each answer's changes printed as JSON lines in the form {@code tail}
 * prints the Kafka topic's — {@code {"change":"inserted","changedAt":...,"principal":...,
 * "entity":{...}}}, the entity as export writes it (its keys only for a deletion or an expiry). A
 * lost connection or a busy service is retried from the same cursor, so no change is skipped or
 * printed twice.
 */
public final class HttpChangeFeed {
    static final int WAIT_SECONDS = 20;

    private final TableServiceHttp http;
    private final String table;
    private final PrintStream messages;

    public HttpChangeFeed(TableServiceHttp http, String table, PrintStream messages) {
        this.http = http;
        this.table = table;
        this.messages = messages;
    }

    /** One answer: its changes as lines and the cursor to read on from. */
    record Page(List<String> lines, String cursor, boolean tableDeleted) {
    }

    /** Prints changes from {@code from} ({@code now}, {@code beginning} or a UTC time), {@code max} of them (-1: all). */
    public void follow(String from, long max, PrintStream out) throws InterruptedException {
        TableScan.requireTable(http, table);
        messages.printf("Following the changes of %s at %s (the HTTP change feed, Ctrl-C to stop)%n", table,
                http.account().endpoint());
        String cursor = null;
        long printed = 0;
        int attempt = 0;
        while (max < 0 || printed < max) {
            Answer answer;
            try {
                answer = http.changes(table, cursor, from, cursor == null ? 0 : WAIT_SECONDS).get();
            } catch (ExecutionException e) {
                if (!TableServiceHttp.retriable(e.getCause()) || ++attempt >= TableScan.ATTEMPTS) {
                    throw new TransferException("Following the changes of " + table + " failed: "
                            + CallFailure.describe(e.getCause(), http.account().endpoint()), e.getCause());
                }
                TimeUnit.MILLISECONDS.sleep(Math.min(10_000, 200L << Math.min(attempt, 6)));
                continue;
            }
            if (!answer.succeeded()) {
                if (TableServiceHttp.retriable(answer.status()) && ++attempt < TableScan.ATTEMPTS) {
                    TimeUnit.MILLISECONDS.sleep(Math.min(10_000, 200L << Math.min(attempt, 6)));
                    continue;
                }
                throw new TransferException("The change feed of " + table + " refused: " + http.refusal(table, answer));
            }
            attempt = 0;
            Page page = page(answer.body());
            for (String line : page.lines()) {
                out.println(line);
                if (++printed == max) {
                    break;
                }
            }
            out.flush();
            if (page.tableDeleted()) {
                messages.printf("The table %s was deleted: its change feed ended%n", table);
                return;
            }
            cursor = page.cursor();
        }
    }

    /** An answer of the feed ({@code {"value":[events],"Cursor":"..."}} at minimal metadata) as lines. */
    static Page page(byte[] body) {
        List<String> lines = new ArrayList<>();
        String cursor = null;
        boolean tableDeleted = false;
        try (JsonParser p = EntityLines.JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("Cursor")) {
                    cursor = p.getText();
                } else if (field.equals("value") && value == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        Event e = event(p);
                        tableDeleted |= e.operation().equals("TableDeleted");
                        lines.add(e.line());
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("The service's answer is not a change feed page: " + e.getMessage(), e);
        }
        return new Page(lines, cursor, tableDeleted);
    }

    private record Event(String operation, String line) {
    }

    /** One event, from the parser at its START_OBJECT, as a line. */
    private static Event event(JsonParser p) throws IOException {
        String operation = null;
        String timestamp = null;
        String principal = null;
        String pk = null;
        String rk = null;
        ByteArrayOutputStream entity = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (name) {
                case "Operation" -> operation = p.getText();
                case "Timestamp" -> timestamp = t == JsonToken.VALUE_NULL ? null : p.getText();
                case "Principal" -> principal = t == JsonToken.VALUE_NULL ? null : p.getText();
                case "PartitionKey" -> pk = t == JsonToken.VALUE_NULL ? null : p.getText();
                case "RowKey" -> rk = t == JsonToken.VALUE_NULL ? null : p.getText();
                case "Entity" -> {
                    if (t == JsonToken.START_OBJECT) {
                        entity = new ByteArrayOutputStream(256);
                        try (JsonGenerator g = EntityLines.JSON.createGenerator(entity)) {
                            EntityLines.copyEntity(p, g);
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = EntityLines.JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("change", snakeCase(operation));
            g.writeStringField("changedAt", timestamp);
            if (principal != null) {
                g.writeStringField("principal", principal);
            }
            g.writeFieldName("entity");
            if (entity != null) {
                g.writeRawValue(entity.toString(StandardCharsets.UTF_8));
            } else {
                g.writeStartObject();
                g.writeStringField("PartitionKey", pk);
                g.writeStringField("RowKey", rk);
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        return new Event(String.valueOf(operation), out.toString(StandardCharsets.UTF_8));
    }

    /** {@code PartitionDeleted} → {@code partition_deleted}, as the topic's change types are printed. */
    static String snakeCase(String operation) {
        if (operation == null) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < operation.length(); i++) {
            char c = operation.charAt(i);
            if (Character.isUpperCase(c) && i > 0) {
                b.append('_');
            }
            b.append(Character.toLowerCase(c));
        }
        return b.toString();
    }
}
