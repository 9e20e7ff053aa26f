package io.tablestream.protocol.cors;

import io.tablestream.core.registry.TableRegistry;

/** Where each account's CORS policy comes from. */
@FunctionalInterface
public interface CorsPolicies {
    /** CORS disabled for every account. */
    CorsPolicies NONE = account -> CorsPolicy.DISABLED;

    /** The CORS policy of {@code account} (disabled when it has no rules). */
    CorsPolicy forAccount(String account);

    /**
     * The CORS rules of each account's service properties in {@code registry}, read on every call
     * (so a Set Table Service Properties takes effect as soon as the registry shows it); a policy
     * is compiled again only when its account's rules change.
     */
    static CorsPolicies of(TableRegistry registry) {
        return new RegistryCorsPolicies(registry);
    }

    /** The same rules for every account (for tests and fixed deployments). */
    static CorsPolicies fixed(CorsPolicy policy) {
        return account -> policy;
    }
}
