package io.tablestream.processor.store;

/** Keys of the {@code transactions} store: {@code <account>/<transactionId>}. */
public final class TransactionKeys {
    private TransactionKeys() {
    }

    public static String of(String account, String transactionId) {
        return account + '/' + transactionId;
    }
}
