package io.tablestream.query.plan;

import io.tablestream.core.filter.Filter;
import io.tablestream.core.filter.IndexCondition;
import io.tablestream.core.model.IndexDefinition;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/** The secondary index a query reads instead of scanning, and the condition it answers. */
public record IndexChoice(IndexDefinition index, IndexCondition condition) {
    public IndexChoice {
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(condition, "condition");
    }

    /** The index (of the table's {@code indexes}) that answers part of {@code filter}, if one does. */
    public static Optional<IndexChoice> choose(Filter filter, List<IndexDefinition> indexes) {
        if (indexes.isEmpty()) {
            return Optional.empty();
        }
        return filter.indexCondition(indexes.stream().map(IndexDefinition::property).collect(Collectors.toSet()))
                .map(c -> new IndexChoice(indexes.stream().filter(i -> i.property().equals(c.property())).findFirst()
                        .orElseThrow(), c));
    }
}
