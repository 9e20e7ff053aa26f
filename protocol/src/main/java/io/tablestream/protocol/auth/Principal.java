package io.tablestream.protocol.auth;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.TableName;
import io.tablestream.protocol.request.Operation;
import java.util.Objects;

/**
 * Who made a request, as authentication established it, and what that lets them do: the account
 * key (SharedKey or SharedKeyLite), a service SAS for one table, an account SAS, or anonymous
 * access. The HTTP layer calls {@link #authorize(Access)} once per operation; queries intersect
 * their plan with {@link #keyRange()} and check each result with {@link #contains}.
 */
public final class Principal {

    /** How the request was authenticated. */
    public enum Kind { SHARED_KEY, SHARED_KEY_LITE, SERVICE_SAS, ACCOUNT_SAS, ANONYMOUS }

    private final Kind kind;
    private final String account;
    private final String audit;
    private final Grant grant;

    private Principal(Kind kind, String account, String audit, Grant grant) {
        this.kind = kind;
        this.account = account;
        this.audit = audit;
        this.grant = grant;
    }

    static Principal sharedKey(String account, String keyLabel) {
        return new Principal(Kind.SHARED_KEY, account, "SharedKey " + account + " " + keyLabel, FullAccess.INSTANCE);
    }

    static Principal sharedKeyLite(String account, String keyLabel) {
        return new Principal(Kind.SHARED_KEY_LITE, account, "SharedKeyLite " + account + " " + keyLabel,
                FullAccess.INSTANCE);
    }

    static Principal anonymous(String account) {
        return new Principal(Kind.ANONYMOUS, account, "Anonymous " + account, FullAccess.INSTANCE);
    }

    static Principal serviceSas(String account, TableName table, String permissions, TableAccessRange range,
                                String identifier, String keyLabel) {
        String audit = "ServiceSAS " + account + "/" + table.value() + " sp=" + permissions
                + (identifier == null ? "" : " si=" + identifier) + " " + keyLabel;
        return new Principal(Kind.SERVICE_SAS, account, audit, new TableGrant(table, permissions, range));
    }

    static Principal accountSas(String account, String resourceTypes, String permissions, String keyLabel) {
        String audit = "AccountSAS " + account + " srt=" + resourceTypes + " sp=" + permissions + " " + keyLabel;
        return new Principal(Kind.ACCOUNT_SAS, account, audit, new AccountGrant(resourceTypes, permissions));
    }

    public Kind kind() {
        return kind;
    }

    /** The account the request is for. */
    public String account() {
        return account;
    }

    /**
     * A short description for the audit trail, e.g. {@code SharedKeyLite devstoreaccount1 key1} or
     * {@code ServiceSAS devstoreaccount1/orders sp=r si=readers key1}. Never holds a signature.
     */
    public String audit() {
        return audit;
    }

    /**
     * Checks that this principal may perform {@code access}; throws {@link TableServiceException}
     * (403: AuthorizationPermissionMismatch, AuthorizationResourceTypeMismatch or
     * AuthorizationFailure) when it may not.
     */
    public void authorize(Access access) {
        Objects.requireNonNull(access, "access");
        if (access.operation() != Operation.PREFLIGHT) {
            grant.check(access);
        }
    }

    /** The entities this principal reaches in the table it may use ({@link TableAccessRange#ALL} unless a service SAS restricts them). */
    public TableAccessRange accessRange() {
        return grant.range();
    }

    /** {@link #accessRange()} as a {@link KeyRange} to intersect query plans with (a superset: see {@link TableAccessRange#keyRange()}). */
    public KeyRange keyRange() {
        return grant.range().keyRange();
    }

    /** Whether the entity with these keys is within this principal's reach. */
    public boolean contains(String partitionKey, String rowKey) {
        return grant.range().contains(partitionKey, rowKey);
    }

    /** Whether some entity of the PartitionKey lies in the range the principal may reach. */
    public boolean touchesPartition(String partitionKey) {
        return grant.range().touchesPartition(partitionKey);
    }

    @Override
    public String toString() {
        return audit;
    }

    private interface Grant {
        void check(Access access);

        default TableAccessRange range() {
            return TableAccessRange.ALL;
        }
    }

    /** The account key, or anonymous access when the operator allows it: everything in the account. */
    private enum FullAccess implements Grant {
        INSTANCE;

        @Override
        public void check(Access access) {
            // the account key may do anything in its account
        }
    }

    /** A service SAS: entity operations on one table, within a key range. */
    private record TableGrant(TableName table, String permissions, TableAccessRange range) implements Grant {
        @Override
        public void check(Access access) {
            String needed = switch (access.operation()) {
                case QUERY_ENTITIES, COUNT_ENTITIES, READ_CHANGES, GET_ENTITY, GET_ENTITY_HISTORY -> "r";
                case INSERT_ENTITY, BULK_WRITE -> "a";
                case UPDATE_ENTITY, MERGE_ENTITY -> "u";
                case INSERT_OR_REPLACE_ENTITY, INSERT_OR_MERGE_ENTITY -> "au";
                case DELETE_ENTITY, DELETE_PARTITION, DELETE_ENTITIES -> "d";
                // a job's status, read by a SAS for the job's table
                case BATCH, SUBMIT_TRANSACTION, PREFLIGHT, GET_JOB -> "";
                default -> null;
            };
            if (needed == null) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                        "A service SAS for a table cannot authorize " + describe(access) + ".");
            }
            if (access.table() != null && !table.sameTableAs(access.table())) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                        "The shared access signature is for another table.");
            }
            requireAll(permissions, needed, access);
            if (access.operation().addressesOneEntity() && !range.contains(access.partitionKey(), access.rowKey())) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                        "The entity's keys are outside the range the shared access signature allows.");
            }
            if (access.operation() == Operation.DELETE_PARTITION && !range.containsPartition(access.partitionKey())) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                        "The partition is not wholly inside the range the shared access signature allows.");
            }
            if (access.operation() == Operation.DELETE_ENTITIES && !range.covers(access.keys())) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE, "The filter may match entities outside"
                        + " the range the shared access signature allows: bound its PartitionKey (and RowKey) inside it.");
            }
        }
    }

    /** An account SAS that includes the Table service: operations by resource type and permission. */
    private record AccountGrant(String resourceTypes, String permissions) implements Grant {
        @Override
        public void check(Access access) {
            Operation op = access.operation();
            if (op == Operation.GET_TABLE_ACL || op == Operation.SET_TABLE_ACL) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                        "An account SAS cannot authorize " + describe(access) + ": only the account key may.");
            }
            char resourceType = switch (op) {
                case GET_SERVICE_PROPERTIES, SET_SERVICE_PROPERTIES, GET_SERVICE_STATS -> 's';
                case QUERY_TABLES, CREATE_TABLE, DELETE_TABLE, LIST_INDEXES, CREATE_INDEX, DROP_INDEX -> 'c';
                default -> 'o';
            };
            if (resourceTypes.indexOf(resourceType) < 0) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_RESOURCE_TYPE_MISMATCH,
                        "The account SAS does not cover the resource type of " + describe(access)
                                + " (srt must include '" + resourceType + "').");
            }
            switch (op) {
                case GET_SERVICE_PROPERTIES, GET_SERVICE_STATS, QUERY_ENTITIES, COUNT_ENTITIES, READ_CHANGES, GET_ENTITY,
                     GET_ENTITY_HISTORY, LIST_INDEXES, GET_TRANSACTION, GET_JOB, LIST_JOBS ->
                        requireAll(permissions, "r", access);
                case CREATE_INDEX -> requireAll(permissions, "w", access);
                case DROP_INDEX -> requireAll(permissions, "d", access);
                case SET_SERVICE_PROPERTIES -> requireAll(permissions, "w", access);
                case QUERY_TABLES -> requireAll(permissions, "l", access);
                case CREATE_TABLE -> requireAny(permissions, "cw", access);
                case DELETE_TABLE, DELETE_ENTITY, DELETE_PARTITION, DELETE_ENTITIES -> requireAll(permissions, "d", access);
                case INSERT_ENTITY, BULK_WRITE -> requireAll(permissions, "a", access);
                case UPDATE_ENTITY, MERGE_ENTITY -> requireAll(permissions, "u", access);
                case INSERT_OR_REPLACE_ENTITY, INSERT_OR_MERGE_ENTITY -> requireAll(permissions, "au", access);
                default -> {
                    // BATCH: each operation inside is checked on its own
                }
            }
        }
    }

    private static void requireAll(String granted, String needed, Access access) {
        for (int i = 0; i < needed.length(); i++) {
            if (granted.indexOf(needed.charAt(i)) < 0) {
                throw permissionMismatch(needed, access, "all of");
            }
        }
    }

    private static void requireAny(String granted, String anyOf, Access access) {
        for (int i = 0; i < anyOf.length(); i++) {
            if (granted.indexOf(anyOf.charAt(i)) >= 0) {
                return;
            }
        }
        throw permissionMismatch(anyOf, access, "one of");
    }

    private static TableServiceException permissionMismatch(String letters, Access access, String how) {
        return TableServiceException.of(ErrorCode.AUTHORIZATION_PERMISSION_MISMATCH,
                "The shared access signature does not grant the permission " + describe(access) + " needs ("
                        + (letters.length() == 1 ? "'" + letters + "'" : how + " '" + letters + "'") + ").");
    }

    private static String describe(Access access) {
        return access.operation().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }
}
