package io.tablestream.cli.transfer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tablestream.client.TableServiceHttp;
import io.tablestream.client.TableServiceHttp.Answer;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A job of the server — a deletion by filter or a restore, Tablestream extensions answered
 * {@code 202 Accepted} with the job's status — followed to its end: its status
 * ({@code GET $jobs/<id>}) asked again every {@link #POLL} until it is no longer {@code Running},
 * its progress said on the messages stream. A lost connection or a busy service while following is
 * asked again (the job runs on in the server meanwhile).
 */
public final class ServerJob {
    static final Duration POLL = Duration.ofMillis(500);
    private static final JsonFactory JSON = new JsonFactory();

    /** A job's status as the server says it; {@code error} is null unless it failed. */
    public record Status(String id, String kind, String state, long entities, String error) {
        public boolean running() {
            return "Running".equals(state);
        }

        public boolean completed() {
            return "Completed".equals(state);
        }

        /** This status if the job completed; else TransferException: "{@code what} failed after N entities: why". */
        public Status requireCompleted(String what) {
            if (!completed()) {
                throw new TransferException(what + " failed after " + String.format("%,d", entities) + " entities: " + error);
            }
            return this;
        }
    }

    private ServerJob() {
    }

    /**
     * Sends {@code request} (a job's start on {@code table}), then follows the job; {@code what} says
     * what it does ("Deleting from Orders ..."). Returns its last status, Completed or Failed;
     * TransferException in words when the request is refused or the server cannot be reached.
     */
    public static Status follow(TableServiceHttp http, String table, String what, CompletableFuture<Answer> request,
                                PrintStream messages, boolean showProgress) throws InterruptedException {
        Answer accepted = answer(http, request);
        if (accepted.status() != 202) {
            throw new TransferException(what + " was refused: " + http.refusal(table, accepted));
        }
        Status status = read(accepted.body());
        messages.printf("%s (job %s)%n", what, status.id());
        long shown = -1;
        int attempt = 0;
        while (status.running()) {
            if (showProgress && status.entities() != shown) {
                messages.printf("  %,d entities so far%n", status.entities());
                shown = status.entities();
            }
            TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
            Answer answer;
            try {
                answer = http.job(status.id()).get();
            } catch (ExecutionException e) {
                if (!TableServiceHttp.retriable(e.getCause()) || ++attempt >= TableScan.ATTEMPTS) {
                    throw new TransferException("Following the job " + status.id() + " failed (it may go on in the"
                            + " server): " + CallFailure.describe(e.getCause(), http.account().endpoint()), e.getCause());
                }
                continue;
            }
            if (!answer.succeeded()) {
                if (TableServiceHttp.retriable(answer.status()) && ++attempt < TableScan.ATTEMPTS) {
                    continue;
                }
                throw new TransferException("Following the job " + status.id() + " failed: " + answer.describe());
            }
            attempt = 0;
            status = read(answer.body());
        }
        return status;
    }

    private static Answer answer(TableServiceHttp http, CompletableFuture<Answer> request) throws InterruptedException {
        try {
            return request.get();
        } catch (ExecutionException e) {
            throw new TransferException(CallFailure.describe(e.getCause(), http.account().endpoint()), e.getCause());
        }
    }

    /** A job's status from its JSON ({@code {"Id":…,"Kind":…,"State":…,"Entities":…,"Error":{"Code","Message"}}}). */
    static Status read(byte[] json) {
        String id = null;
        String kind = null;
        String state = null;
        long entities = 0;
        String error = null;
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new TransferException("The server's answer is not a job's status: " + new String(json,
                        java.nio.charset.StandardCharsets.UTF_8));
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "Id" -> id = p.getValueAsString();
                    case "Kind" -> kind = p.getValueAsString();
                    case "State" -> state = p.getValueAsString();
                    case "Entities" -> entities = p.getValueAsLong();
                    case "Error" -> error = value == JsonToken.START_OBJECT ? error(p) : null;
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new TransferException("The server's answer is not a job's status: " + e.getMessage(), e);
        }
        if (id == null || state == null) {
            throw new TransferException("The server's answer is not a job's status (no Id or State)");
        }
        return new Status(id, kind, state, entities, error);
    }

    /** {"Code":…,"Message":…} as "Code: Message". */
    private static String error(JsonParser p) throws IOException {
        String code = null;
        String message = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (name.equals("Code")) {
                code = p.getValueAsString();
            } else if (name.equals("Message")) {
                message = p.getValueAsString();
            } else {
                p.skipChildren();
            }
        }
        return (code == null ? "" : code + ": ") + (message == null ? "no reason given" : message);
    }
}
