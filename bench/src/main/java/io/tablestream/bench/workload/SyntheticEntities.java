package io.tablestream.bench.workload;

import com.azure.data.tables.models.TableEntity;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The entities of the benchmark table. Every property value is a function of the entity's keys
 * (and of a revision, for updates), so any answer can be checked without keeping the table in
 * memory. Six typed properties, about 200 bytes of JSON per entity:
 * {@code Label} (String, 80 characters), {@code Quantity} (Int32, 0..999), {@code Sequence}
 * (Int64), {@code Score} (Double, never integral: an integral Double comes back as an Int32 from
 * the service and Azurite), {@code UpdatedAt} (DateTime, whole
 * milliseconds) and {@code Active} (Boolean).
 */
public final class SyntheticEntities {
    static final String LABEL = "Label";
    static final String QUANTITY = "Quantity";
    static final String SEQUENCE = "Sequence";
    static final String SCORE = "Score";
    static final String UPDATED_AT = "UpdatedAt";
    static final String ACTIVE = "Active";
    /** Set by merges and replaces: which update wrote the entity's current values. */
    static final String REVISION = "Revision";

    private static final int LABEL_LENGTH = 80;
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
    private static final long EPOCH_2020_MILLIS = 1_577_836_800_000L;

    private SyntheticEntities() {
    }

    /** The properties of the entity as first written (revision 0). */
    public static Map<String, Object> properties(String partitionKey, String rowKey) {
        return properties(partitionKey, rowKey, 0);
    }

    /** The six typed properties for {@code revision} of the entity (revision 0 is the original). */
    static Map<String, Object> properties(String partitionKey, String rowKey, int revision) {
        long seed = seed(partitionKey, rowKey, revision);
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(LABEL, label(seed));
        p.put(QUANTITY, quantity(seed));
        p.put(SEQUENCE, seed >>> 1);
        p.put(SCORE, Math.floorMod(seed, 4_000_000L) / 4.0 + 0.125);
        p.put(UPDATED_AT, OffsetDateTime.ofInstant(
                Instant.ofEpochMilli(EPOCH_2020_MILLIS + Math.floorMod(seed, 150_000_000_000L)), ZoneOffset.UTC));
        p.put(ACTIVE, (seed & 1) == 1);
        return p;
    }

    /** The Int32 property the partition-scan filter tests ({@code Quantity gt 500}). */
    static int quantity(String partitionKey, String rowKey) {
        return quantity(seed(partitionKey, rowKey, 0));
    }

    /** The same properties as core's Edm values (for Kafka-native commands and microbenchmarks). */
    public static Map<String, EdmValue> edmProperties(String partitionKey, String rowKey) {
        Map<String, EdmValue> out = new LinkedHashMap<>();
        properties(partitionKey, rowKey).forEach((name, value) -> out.put(name, edm(value)));
        return out;
    }

    private static EdmValue edm(Object value) {
        if (value instanceof String s) {
            return EdmString.of(s);
        } else if (value instanceof Integer i) {
            return EdmInt32.of(i);
        } else if (value instanceof Long l) {
            return EdmInt64.of(l);
        } else if (value instanceof Double d) {
            return EdmDouble.of(d);
        } else if (value instanceof Boolean b) {
            return EdmBoolean.of(b);
        } else if (value instanceof OffsetDateTime t) {
            return EdmDateTime.of(t.toInstant());
        }
        throw new IllegalArgumentException("no Edm type for " + value.getClass());
    }

    static TableEntity entity(String partitionKey, String rowKey) {
        return new TableEntity(partitionKey, rowKey).setProperties(properties(partitionKey, rowKey));
    }

    /**
     * Checks that {@code actual} is the entity with these keys and exactly these custom properties,
     * each of the expected type and value, and that it carries a Timestamp and an ETag.
     *
     * @throws WrongAnswer when anything differs
     */
    public static void check(String what, TableEntity actual, String partitionKey, String rowKey,
                      Map<String, Object> expected) {
        if (actual == null) {
            throw new WrongAnswer(what + ": no entity returned for (" + partitionKey + ", " + rowKey + ")");
        }
        if (!partitionKey.equals(actual.getPartitionKey()) || !rowKey.equals(actual.getRowKey())) {
            throw new WrongAnswer(what + ": expected keys (" + partitionKey + ", " + rowKey + ") but got ("
                    + actual.getPartitionKey() + ", " + actual.getRowKey() + ")");
        }
        if (actual.getETag() == null || actual.getETag().isEmpty()) {
            throw new WrongAnswer(what + ": entity (" + partitionKey + ", " + rowKey + ") has no ETag");
        }
        if (actual.getTimestamp() == null) {
            throw new WrongAnswer(what + ": entity (" + partitionKey + ", " + rowKey + ") has no Timestamp");
        }
        int custom = 0;
        for (Map.Entry<String, Object> property : actual.getProperties().entrySet()) {
            String name = property.getKey();
            if (isSystemProperty(name)) {
                continue;
            }
            custom++;
            if (!expected.containsKey(name)) {
                throw new WrongAnswer(what + ": entity (" + partitionKey + ", " + rowKey + ") has unexpected property "
                        + name + " = " + property.getValue());
            }
            if (!sameValue(expected.get(name), property.getValue())) {
                throw new WrongAnswer(what + ": entity (" + partitionKey + ", " + rowKey + ") property " + name
                        + " expected " + describe(expected.get(name)) + " but got " + describe(property.getValue()));
            }
        }
        if (custom != expected.size()) {
            throw new WrongAnswer(what + ": entity (" + partitionKey + ", " + rowKey + ") has " + custom
                    + " custom properties, expected " + expected.keySet());
        }
    }

    /** Keys, Timestamp and OData control information (the SDK keeps {@code Name@odata.type} too). */
    private static boolean isSystemProperty(String name) {
        return name.equals("PartitionKey") || name.equals("RowKey") || name.equals("Timestamp")
                || name.startsWith("odata.") || name.contains("@odata.");
    }

    private static boolean sameValue(Object expected, Object actual) {
        if (expected instanceof OffsetDateTime e) {
            return actual instanceof OffsetDateTime a && e.toInstant().equals(a.toInstant());
        }
        return actual != null && expected.getClass() == actual.getClass() && Objects.equals(expected, actual);
    }

    private static String describe(Object value) {
        return value == null ? "null" : value + " (" + value.getClass().getSimpleName() + ")";
    }

    private static int quantity(long seed) {
        return (int) Math.floorMod(seed >>> 7, 1000L);
    }

    private static String label(long seed) {
        StringBuilder s = new StringBuilder(LABEL_LENGTH);
        long bits = seed;
        while (s.length() < LABEL_LENGTH) {
            s.append(ALPHABET.charAt((int) (bits & 63)));
            bits = Long.rotateRight(bits, 6) ^ 0x9E3779B97F4A7C15L;
        }
        return s.toString();
    }

    /** A well-mixed 64-bit function of the keys and revision (SplitMix64's finalizer). */
    private static long seed(String partitionKey, String rowKey, int revision) {
        long z = ((long) partitionKey.hashCode() << 32) ^ (rowKey.hashCode() & 0xFFFFFFFFL);
        z += 0x9E3779B97F4A7C15L * (revision + 1L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
