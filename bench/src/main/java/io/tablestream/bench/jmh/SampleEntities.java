package io.tablestream.bench.jmh;

import io.tablestream.bench.workload.SyntheticEntities;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.StoredEntity;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The entities the microbenchmarks work on: those of the workload driver's table (six typed
 * properties, about 200 bytes), stored (with a Timestamp), and as the Java SDK sends one.
 */
final class SampleEntities {
    static final String PARTITION_KEY = "load-0042";
    static final long TABLE_ID = 7;

    private SampleEntities() {
    }

    static Entity stored(long row) {
        String rk = String.format("r%08d", row);
        return Entity.of(PARTITION_KEY, rk, SyntheticEntities.edmProperties(PARTITION_KEY, rk))
                .withVersion(EdmDateTime.of(Instant.parse("2026-01-02T03:04:05.1234567Z")));
    }

    static StoredEntity storedWithoutExpiry(long row) {
        return new StoredEntity(stored(row), null);
    }

    static List<Entity> page(int size) {
        List<Entity> page = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            page.add(stored(i));
        }
        return page;
    }

    /**
     * An Insert Entity body as the Java SDK writes it: no metadata, the Int64 and DateTime values
     * as strings with their {@code @odata.type} annotations after them.
     */
    static byte[] requestBody(long row) {
        Entity e = stored(row);
        StringBuilder json = new StringBuilder(320);
        json.append("{\"PartitionKey\":\"").append(e.partitionKey()).append("\",\"RowKey\":\"").append(e.rowKey())
                .append('"');
        e.properties().forEach((name, value) -> {
            json.append(",\"").append(name).append("\":");
            switch (value.type()) {
                case STRING -> json.append('"').append(((EdmString) value).value()).append('"');
                case INT64 -> json.append('"').append(((EdmInt64) value).value())
                        .append("\",\"").append(name).append("@odata.type\":\"Edm.Int64\"");
                case DATE_TIME -> json.append('"').append(((EdmDateTime) value).toIso()).append("\",\"").append(name)
                        .append("@odata.type\":\"Edm.DateTime\"");
                case INT32 -> json.append(((EdmInt32) value).value());
                case DOUBLE -> json.append(((EdmDouble) value).value());
                case BOOLEAN -> json.append(((EdmBoolean) value).value());
                default -> throw new IllegalStateException("not in the sample: " + value.type());
            }
        });
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }
}
