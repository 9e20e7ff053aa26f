package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;

/** Get Transaction (an extension): a cross-partition transaction's status, from its coordinator's partition. */
record TransactionStatusHandler(EntityStore store, PartitionReads reads) {
    /**
     * A cross-partition transaction's status (an extension), from its coordinator's partition, routed
     * like a point read. With the session token of the submission it waits until the coordinator
     * has recorded the transaction; without, a transaction not recorded yet is 404 TransactionNotFound.
     */
    void handle(RequestContext request, Context http) {
        request.caller().authorize(Operation.GET_TRANSACTION, null, null, null);
        String id = ((ResourcePath.TransactionItem) request.resource()).transactionId();
        reads.readOnePartition(request, http, CommandKey.forTransaction(request.account(), id),
                (replica, partition) -> store.transaction(replica, partition, request.account(), id),
                found -> TransactionStatusJson.write(found.orElseThrow(() ->
                        TableServiceException.of(ErrorCode.TRANSACTION_NOT_FOUND))));
    }
}
