package io.tablestream.core.codec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A {@code $select} projection: which properties a response carries.
 *
 * <p>What the service does, and so what the writers do (evidence: recorded Azure responses of the
 * azure-sdk-for-js test suite, e.g. {@code $select=baz,PartitionKey,RowKey}, and Azurite issue #2535):
 * <ul>
 *   <li>{@code odata.metadata} gets {@code &$select=} and the selected names appended, as given;</li>
 *   <li>control information ({@code odata.etag}, and at full metadata {@code odata.type/id/editLink})
 *       is written as without a projection;</li>
 *   <li>PartitionKey, RowKey and Timestamp are written only when selected;</li>
 *   <li>a selected custom property the entity does not have is written as {@code null}.</li>
 * </ul>
 * An empty {@code $select} or {@code *} selects everything.
 */
public final class Projection {
    /** No projection: every property. */
    public static final Projection ALL = new Projection(List.of());

    private final List<String> names;
    private final Set<String> nameSet;

    private Projection(List<String> names) {
        this.names = List.copyOf(names);
        this.nameSet = Collections.unmodifiableSet(new LinkedHashSet<>(names));
    }

    /** The projection onto {@code names}; an empty list, or one holding {@code *}, selects everything. */
    public static Projection of(List<String> names) {
        Objects.requireNonNull(names, "names");
        if (names.isEmpty() || names.contains("*")) {
            return ALL;
        }
        return new Projection(names);
    }

    /** The projection a {@code $select} value (comma-separated names) asks for; {@code null} or blank is {@link #ALL}. */
    public static Projection parse(String select) {
        if (select == null || select.isBlank()) {
            return ALL;
        }
        List<String> names = new ArrayList<>();
        for (String name : select.split(",")) {
            String trimmed = name.trim();
            if (!trimmed.isEmpty()) {
                names.add(trimmed);
            }
        }
        return of(names);
    }

    public boolean isAll() {
        return names.isEmpty();
    }

    /** The selected names in the order given (empty for {@link #ALL}). */
    public List<String> names() {
        return names;
    }

    /** Whether a property named {@code name} is written. */
    public boolean includes(String name) {
        return isAll() || nameSet.contains(name);
    }

    /** The distinct selected names, in the order given. */
    Set<String> distinctNames() {
        return nameSet;
    }

    /** What follows {@code &$select=} in {@code odata.metadata}. */
    String selectClause() {
        return String.join(",", names);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Projection other && names.equals(other.names);
    }

    @Override
    public int hashCode() {
        return names.hashCode();
    }

    @Override
    public String toString() {
        return isAll() ? "Projection[*]" : "Projection" + names;
    }
}
