package io.tablestream.query.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The settings of a small admin client of Tablestream's own: the cluster, a client id, one timeout
 * for each request and each call, and of the configured Kafka client settings (security among
 * them) those an admin client takes, so a cluster speaking TLS or SASL is reached like any other.
 */
public final class AdminSettings {
    private AdminSettings() {
    }

    /**
     * @param clientSettings the settings every Kafka client of the instance gets ({@code kafka.*}); others
     *                       than an admin client's are left out, so the client logs no unknown setting
     */
    public static Map<String, Object> of(String bootstrapServers, String clientId, int timeoutMs,
                                         Map<String, String> clientSettings) {
        Map<String, Object> settings = new HashMap<>();
        clientSettings.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                settings.put(k, v);
            }
        });
        settings.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        return settings;
    }
}
