package io.tablestream.protocol.cors;

import io.tablestream.core.model.CorsRule;
import io.tablestream.core.registry.TableRegistry;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link CorsPolicies} over the registry. Compiled policies are kept per account that has rules
 * (accounts without rules share {@link CorsPolicy#DISABLED}, so requests naming made-up accounts
 * add nothing to the cache).
 */
final class RegistryCorsPolicies implements CorsPolicies {
    private final TableRegistry registry;
    private final Map<String, CorsPolicy> compiled = new ConcurrentHashMap<>();

    RegistryCorsPolicies(TableRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public CorsPolicy forAccount(String account) {
        List<CorsRule> rules = registry.serviceProperties(account).cors();
        if (rules.isEmpty()) {
            compiled.remove(account);
            return CorsPolicy.DISABLED;
        }
        CorsPolicy known = compiled.get(account);
        if (known != null && known.rules().equals(rules)) {
            return known;
        }
        CorsPolicy policy = CorsPolicy.of(rules);
        compiled.put(account, policy);
        return policy;
    }
}
