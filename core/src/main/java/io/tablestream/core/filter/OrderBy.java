package io.tablestream.core.filter;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.KeyOrder;
import io.tablestream.core.rules.PropertyNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A parsed {@code $orderby} (OData syntax: comma-separated {@code property [asc|desc]}). Azure Table
 * storage has one order, ascending (PartitionKey, RowKey); Tablestream also reads one partition
 * newest-first, and a table (or a partition) in the order of a property that has a secondary
 * index. What it can serve:
 * <ul>
 *   <li>absent, {@code PartitionKey [asc]}, {@code PartitionKey [asc],RowKey [asc]}: key order, for any query;</li>
 *   <li>{@code RowKey [asc]}, {@code RowKey desc} (optionally after {@code PartitionKey [asc|desc]}):
 *       for a query whose {@code $filter} fixes the PartitionKey ({@code PartitionKey eq '…'});</li>
 *   <li>one other property alone, {@code Name [asc|desc]} ({@link #byProperty()}): for a table with
 *       a secondary index on it (the query checks that), any query.</li>
 * </ul>
 * Anything else — Timestamp, several properties, a repeated one, RowKey before PartitionKey, a
 * descending key order across partitions — is refused with 400 InvalidQueryParameterValue saying
 * what is supported, never silently ignored.
 */
public record OrderBy(List<Item> items) {
    public static final String PARAMETER = "$orderby";
    private static final OrderBy NONE = new OrderBy(List.of());
    private static final String SUPPORTED = " Supported: PartitionKey and RowKey in key order (asc) for any query,"
            + " RowKey desc for a query whose $filter fixes the PartitionKey (PartitionKey eq '...'),"
            + " and one property that has a secondary index, alone (<property> asc or <property> desc).";

    /** One ordering term. */
    public record Item(String property, boolean descending) {
        /** Whether it orders by a property other than the keys. */
        public boolean isCustom() {
            return !property.equals("PartitionKey") && !property.equals("RowKey");
        }
    }

    public OrderBy {
        items = List.copyOf(items);
    }

    /**
     * Parses {@code $orderby} text (already URL-decoded); absent or blank is the key order.
     *
     * @throws TableServiceException InvalidQueryParameterValue for text that is not an ordering of
     *     PartitionKey and RowKey
     */
    public static OrderBy parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        List<Item> items = new ArrayList<>();
        for (String term : text.split(",", -1)) {
            String[] words = term.strip().split("\\s+");
            if (words.length == 0 || words[0].isEmpty() || words.length > 2) {
                throw unsupported("'" + term.strip() + "' is not an ordering term (property [asc|desc]).");
            }
            String property = words[0];
            boolean key = property.equals("PartitionKey") || property.equals("RowKey");
            if (!key && (!PropertyNames.isIdentifier(property) || property.equals(PropertyNames.TIMESTAMP))) {
                throw unsupported("Ordering by '" + property + "' is not supported.");
            }
            if (!key && !items.isEmpty() || !items.isEmpty() && items.get(0).isCustom()) {
                throw unsupported("A property other than the keys orders a query alone.");
            }
            boolean descending = false;
            if (words.length == 2) {
                String direction = words[1].toLowerCase(Locale.ROOT);
                if (!direction.equals("asc") && !direction.equals("desc")) {
                    throw unsupported("'" + words[1] + "' is not a direction (asc or desc).");
                }
                descending = direction.equals("desc");
            }
            for (Item seen : items) {
                if (seen.property().equals(property)) {
                    throw unsupported(property + " appears twice.");
                }
            }
            if (property.equals("PartitionKey") && !items.isEmpty()) {
                throw unsupported("PartitionKey must come before RowKey.");
            }
            items.add(new Item(property, descending));
        }
        return new OrderBy(items);
    }

    /** The property other than the keys it orders by, if it does (then it is the one term). */
    public Optional<Item> byProperty() {
        return items.size() == 1 && items.get(0).isCustom() ? Optional.of(items.get(0)) : Optional.empty();
    }

    /** Whether the text asked for nothing (the service's order). */
    public boolean isDefault() {
        return items.isEmpty();
    }

    /**
     * The order to read in, for a query that does ({@code onePartition}) or does not fix the
     * PartitionKey.
     *
     * @throws TableServiceException InvalidQueryParameterValue when the ordering cannot be served for such a query
     */
    public KeyOrder orderFor(boolean onePartition) {
        if (byProperty().isPresent()) {
            return KeyOrder.ASCENDING; // ties and the key ranges read are in key order
        }
        Item partitionKey = find("PartitionKey");
        Item rowKey = find("RowKey");
        if (onePartition) {
            return rowKey != null && rowKey.descending() ? KeyOrder.DESCENDING : KeyOrder.ASCENDING;
        }
        if (partitionKey == null && rowKey != null) {
            throw unsupported("Ordering by RowKey needs a $filter that fixes the PartitionKey.");
        }
        if ((partitionKey != null && partitionKey.descending()) || (rowKey != null && rowKey.descending())) {
            throw unsupported("A descending order is served within one partition only:"
                    + " add PartitionKey eq '...' to the $filter.");
        }
        return KeyOrder.ASCENDING;
    }

    private Item find(String property) {
        for (Item item : items) {
            if (item.property().equals(property)) {
                return item;
            }
        }
        return null;
    }

    private static TableServiceException unsupported(String why) {
        return TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                "The value of " + PARAMETER + " is not supported. " + why + SUPPORTED);
    }
}
