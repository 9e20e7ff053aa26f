package io.tablestream.server.cors;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableServiceCorsRule;
import com.azure.data.tables.models.TableServiceProperties;
import java.util.List;

/** Sets the emulator account's CORS rules through the SDK (and only them: the other settings are kept). */
final class CorsRules {
    static final String APP = "https://app.example";

    /** The app's origin may use the write and read methods, with the headers the SDKs send. */
    static final TableServiceCorsRule APP_RULE = new TableServiceCorsRule()
            .setAllowedOrigins(APP)
            .setAllowedMethods("GET,PUT,POST,DELETE,MERGE,PATCH")
            .setAllowedHeaders("x-ms-*,content-type,accept,prefer,authorization")
            .setExposedHeaders("x-ms-*,ETag")
            .setMaxAgeInSeconds(600);

    private CorsRules() {
    }

    static void set(TableServiceClient service, TableServiceCorsRule... rules) {
        service.setProperties(new TableServiceProperties().setCorsRules(List.of(rules)));
    }

    static void clear(TableServiceClient service) {
        service.setProperties(new TableServiceProperties().setCorsRules(List.of()));
    }
}
