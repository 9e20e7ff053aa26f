package io.tablestream.protocol.http;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.protocol.request.Operation;

/**
 * What each location of an account serves. The primary ({@code /<account>/}) serves every
 * operation but Get Service Stats, which the service offers on the secondary location only
 * ("Get Table Service Stats": "available only on the secondary location endpoint"). The secondary
 * location ({@code /<account>-secondary/}, as the storage emulators name it) serves reads of the
 * same data and the stats, and refuses writes as the service's read-access secondary does
 * (403 InsufficientAccountPermissions, "Write operations are not allowed.").
 */
public final class Locations {
    private Locations() {
    }

    /** @throws TableServiceException when {@code operation} is not served at the location the request addressed */
    public static void check(Operation operation, boolean secondary) {
        if (secondary && operation.isWrite()) {
            throw TableServiceException.of(ErrorCode.INSUFFICIENT_ACCOUNT_PERMISSIONS,
                    "Write operations are not allowed on the secondary location; send them to the primary"
                            + " (the account's own path, without -secondary).");
        }
        if (!secondary && operation == Operation.GET_SERVICE_STATS) {
            throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                    "Service stats (comp=stats) are served on the secondary location only: send the request to"
                            + " /<account>-secondary/?restype=service&comp=stats.");
        }
    }
}
