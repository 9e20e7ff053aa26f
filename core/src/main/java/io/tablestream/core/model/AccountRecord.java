package io.tablestream.core.model;

import java.util.Objects;

/**
 * An account's settings as the registry knows them: its Table service properties (analytics
 * settings and CORS rules). An account without a record has {@link ServiceProperties#DEFAULT}.
 */
public record AccountRecord(String account, ServiceProperties serviceProperties) implements RegistryRecord {
    public AccountRecord {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(serviceProperties, "serviceProperties");
    }

    public static AccountRecord of(String account, ServiceProperties serviceProperties) {
        return new AccountRecord(account, serviceProperties);
    }

    /** The settings an account has before it ever set any. */
    public static AccountRecord initial(String account) {
        return new AccountRecord(account, ServiceProperties.DEFAULT);
    }
}
