package io.tablestream.processor.internal;

import io.tablestream.core.model.TableName;

/**
 * Keys of the tables topic and the registry store. Each table change is written under both
 * {@code name/<account>/<lower-case name>} (looked up by the API; a tombstone once deleted) and
 * {@code id/<tableId>} (looked up by the processor; kept, as DELETED, once deleted). An account's
 * settings are written under {@code account/<account>}.
 */
public final class RegistryKey {
    private static final String NAME = "name/";
    private static final String ID = "id/";
    private static final String ACCOUNT = "account/";

    private RegistryKey() {
    }

    public static String byName(String account, TableName name) {
        return byNameKey(account, name.key());
    }

    public static String byNameKey(String account, String lowerCaseName) {
        return NAME + account + '/' + lowerCaseName;
    }

    public static String byId(long tableId) {
        return ID + tableId;
    }

    public static String forAccount(String account) {
        return ACCOUNT + account;
    }

    /** {@code <account>/<lower-case name>} of a {@link #byNameKey name key}. */
    public static String accountAndName(String nameKey) {
        return nameKey.substring(NAME.length());
    }

    /** The account of an {@link #forAccount account key}. */
    public static String accountOf(String accountKey) {
        return accountKey.substring(ACCOUNT.length());
    }

    /** The first name key of an account (inclusive). */
    public static String accountStart(String account) {
        return NAME + account + '/';
    }

    /** The bound past an account's name keys ('0' follows '/'). */
    public static String accountEnd(String account) {
        return NAME + account + '0';
    }

    /** The first id key (inclusive) and the bound past the id keys. */
    public static String idStart() {
        return ID;
    }

    public static String idEnd() {
        return "id0";
    }
}
