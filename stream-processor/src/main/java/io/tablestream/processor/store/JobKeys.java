package io.tablestream.processor.store;

/**
 * Keys of the {@code jobs} store. The task that coordinates an account's jobs (the one owning the
 * account's key) keeps each job's status under {@code status/<account>/<jobId>}; every task keeps
 * its share of a job it is working on under {@code part/<jobId>}. Account names hold no {@code /}.
 */
public final class JobKeys {
    private static final String STATUS = "status/";
    private static final String PART = "part/";

    private JobKeys() {
    }

    public static String status(String account, String jobId) {
        return statusPrefix(account) + jobId;
    }

    /** The first key of an account's statuses. */
    public static String statusPrefix(String account) {
        return STATUS + account + '/';
    }

    /** The bound past every key beginning with {@code prefix} (which ends with '/', and '0' follows it). */
    public static String end(String prefix) {
        return prefix.substring(0, prefix.length() - 1) + '0';
    }

    public static String part(String jobId) {
        return PART + jobId;
    }

    /** The account of a {@link #status} key, or null for a key that is not one (a share). */
    public static String accountOfStatus(String key) {
        return key.startsWith(STATUS) ? key.substring(STATUS.length(), key.indexOf('/', STATUS.length())) : null;
    }

    /** The first key of the partition shares. */
    public static String partPrefix() {
        return PART;
    }
}
