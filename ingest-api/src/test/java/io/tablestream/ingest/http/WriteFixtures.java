package io.tablestream.ingest.http;

import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.ingest.command.CommandLog;
import io.tablestream.protocol.batch.BatchOperation;
import io.tablestream.protocol.batch.HeaderField;
import io.tablestream.protocol.batch.HeaderFields;
import io.tablestream.protocol.http.Caller;
import io.tablestream.protocol.request.Operation;
import io.tablestream.schemas.LogPartitioner;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/** The write side's test vocabulary: an account's tables, a recording command log, a caller, change-set operations. */
final class WriteFixtures {
    static final String ACCOUNT = "acct";
    static final String INSTANCE = "node-test";
    private static final EdmDateTime CREATED = EdmDateTime.of(Instant.parse("2024-01-01T00:00:00Z"));
    static final TableRecord ORDERS = TableRecord.active(ACCOUNT, TableName.of("Orders"), 77, CREATED, null);
    static final TableRecord ARCHIVE = TableRecord.active(ACCOUNT, TableName.of("Archive"), 78, CREATED, null);
    static final EdmDateTime APPLIED_AT = EdmDateTime.of(Instant.parse("2024-02-03T04:05:06.1234567Z"));

    private WriteFixtures() {
    }

    /** Appends to a list and answers each awaited command with {@link #failure}, or as applied at {@link #APPLIED_AT}. */
    static final class RecordingLog implements CommandLog {
        final List<Command> appended = Collections.synchronizedList(new ArrayList<>());
        volatile Outcome.Failure failure;

        @Override
        public CompletableFuture<SessionToken.Position> append(Command command) {
            appended.add(command);
            return CompletableFuture.completedFuture(new SessionToken.Position(0, appended.size()));
        }

        @Override
        public CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout) {
            appended.add(command);
            int operations = command instanceof EntityCommand e ? e.operations().size() : 0;
            List<Outcome.OperationResult> results = new ArrayList<>();
            for (int i = 0; i < operations && failure == null; i++) {
                results.add(new Outcome.OperationResult(APPLIED_AT));
            }
            return CompletableFuture.completedFuture(new Outcome(command.header().id(), command.header().replyTo(),
                    failure, results, null, 0, appended.size()));
        }

        @Override
        public String instanceId() {
            return INSTANCE;
        }

        @Override
        public int partitionOf(CommandKey key) {
            return LogPartitioner.partitionOf(key, 4);
        }
    }

    /** A registry of {@link #ACCOUNT} holding the given tables (names case-insensitive, as the service's). */
    static final class Tables implements TableRegistry {
        private final List<TableRecord> tables;

        Tables(TableRecord... tables) {
            this.tables = List.of(tables);
        }

        @Override
        public Optional<TableRecord> byName(String account, TableName name) {
            return tables.stream().filter(t -> t.account().equals(account) && t.name().sameTableAs(name)).findFirst();
        }

        @Override
        public Optional<TableRecord> byId(long tableId) {
            return tables.stream().filter(t -> t.tableId() == tableId).findFirst();
        }

        @Override
        public List<TableRecord> list(String account, String fromNameKey, int limit) {
            return tables;
        }

        @Override
        public ServiceProperties serviceProperties(String account) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Void> awaitChange(BooleanSupplier condition) {
            return CompletableFuture.completedFuture(null);
        }
    }

    /**
     * A caller that may do everything but write at one RowKey ({@link #denyRowKey}), and records each
     * permission asked as {@code "OPERATION table PartitionKey RowKey"}.
     */
    static final class RecordingCaller implements Caller {
        final List<String> asked = Collections.synchronizedList(new ArrayList<>());
        volatile String deniedRowKey;
        volatile ErrorCode denial = ErrorCode.AUTHORIZATION_PERMISSION_MISMATCH;

        RecordingCaller denyRowKey(String rowKey) {
            this.deniedRowKey = rowKey;
            return this;
        }

        /** Denies the RowKey as a SAS whose key range leaves it out does (AuthorizationFailure). */
        RecordingCaller denyRowKeyOutOfRange(String rowKey) {
            this.denial = ErrorCode.AUTHORIZATION_FAILURE;
            return denyRowKey(rowKey);
        }

        @Override
        public String principal() {
            return "test";
        }

        @Override
        public void authorize(Operation operation, String table, String partitionKey, String rowKey) {
            asked.add(operation + " " + table + " " + partitionKey + " " + rowKey);
            if (rowKey != null && rowKey.equals(deniedRowKey)) {
                throw TableServiceException.of(denial);
            }
        }

        @Override
        public KeyRange readableKeys(String table) {
            return KeyRange.ALL;
        }

        @Override
        public boolean mayRead(String table, String partitionKey, String rowKey) {
            return true;
        }
    }

    /**
     * Operation {@code index} of a change set: method, URL (relative to the account), body (or null), header
     * pairs; a body is sent as JSON unless a Content-Type is given.
     */
    static BatchOperation op(int index, String method, String url, String body, String... headers) {
        List<HeaderField> fields = new ArrayList<>();
        if (body != null && !List.of(headers).contains("Content-Type")) {
            fields.add(HeaderField.of("Content-Type", "application/json"));
        }
        for (int i = 0; i < headers.length; i += 2) {
            fields.add(HeaderField.of(headers[i], headers[i + 1]));
        }
        return new BatchOperation(index, BatchOperation.Method.valueOf(method), url, HeaderFields.of(fields),
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), Optional.empty());
    }

    static BatchOperation insert(int index, String table, String partitionKey, String rowKey) {
        return op(index, "POST", table, "{\"PartitionKey\":\"" + partitionKey + "\",\"RowKey\":\"" + rowKey + "\"}");
    }

    static BatchOperation upsert(int index, String table, String partitionKey, String rowKey, String body) {
        return op(index, "PUT", entity(table, partitionKey, rowKey), body);
    }

    static BatchOperation delete(int index, String table, String partitionKey, String rowKey) {
        return op(index, "DELETE", entity(table, partitionKey, rowKey), null, "If-Match", "*");
    }

    static String entity(String table, String partitionKey, String rowKey) {
        return table + "(PartitionKey='" + partitionKey + "',RowKey='" + rowKey + "')";
    }
}
