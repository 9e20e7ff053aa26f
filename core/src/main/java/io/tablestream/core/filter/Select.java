package io.tablestream.core.filter;

import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.rules.Limits;
import io.tablestream.core.rules.PropertyNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed {@code $select}: the properties a query returns, in the order asked, each at most once.
 * An empty list means every property ({@code $select} absent, blank, or {@code *}).
 *
 * <p>Names are comma-separated and trimmed; each must be a property name (a C# identifier of at
 * most 255 characters, system names such as PartitionKey and TableName included), else the
 * request fails with InvalidInput. A name the row does not have is not an error: the service
 * answers it with a null value, which is the writer's business ({@link #names()} keeps it).
 */
public record Select(List<String> names) {
    private static final Select ALL = new Select(List.of());

    public Select {
        names = List.copyOf(names);
    }

    /** Every property. */
    public static Select all() {
        return ALL;
    }

    /**
     * Parses {@code $select} text (already URL-decoded).
     *
     * @throws io.tablestream.core.error.TableServiceException InvalidInput for an empty or invalid name
     */
    public static Select parse(String text) {
        if (text == null || text.isBlank()) {
            return ALL;
        }
        Set<String> names = new LinkedHashSet<>();
        boolean star = false;
        int start = 0;
        while (true) {
            int comma = text.indexOf(',', start);
            int end = comma < 0 ? text.length() : comma;
            String name = text.substring(start, end).trim();
            int at = start;
            while (at < end && text.charAt(at) <= ' ') {
                at++; // where the trimmed name starts
            }
            if (name.equals("*")) {
                star = true;
            } else if (name.isEmpty()) {
                throw FilterError.select(at, "expected a property name before "
                        + (comma < 0 ? "the end" : "','") + ".");
            } else if (name.length() > Limits.MAX_PROPERTY_NAME_LENGTH || !PropertyNames.isIdentifier(name)) {
                throw FilterError.select(at, FilterError.quote(name) + " is not a property name.");
            } else {
                names.add(name);
            }
            if (comma < 0) {
                break;
            }
            start = comma + 1;
        }
        return star ? ALL : new Select(new ArrayList<>(names));
    }

    /** Whether every property is selected. */
    public boolean isAll() {
        return names.isEmpty();
    }

    /** Whether the property (custom or system, e.g. PartitionKey) is returned. */
    public boolean includes(String property) {
        return isAll() || names.contains(property);
    }

    /** The selected properties among {@code properties}, in the order of the selection. */
    public Map<String, EdmValue> applyTo(Map<String, EdmValue> properties) {
        if (isAll()) {
            return properties;
        }
        Map<String, EdmValue> selected = new LinkedHashMap<>();
        for (String name : names) {
            EdmValue value = properties.get(name);
            if (value != null) {
                selected.put(name, value);
            }
        }
        return selected;
    }

    /**
     * The entity with only the selected custom properties. Keys and version stay (an entity always
     * has them); whether to write PartitionKey, RowKey and Timestamp is {@link #includes(String)}.
     */
    public Entity applyTo(Entity entity) {
        return isAll() ? entity : entity.withProperties(applyTo(entity.properties()));
    }
}
