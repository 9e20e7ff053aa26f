package io.tablestream.query.plan;

import io.tablestream.core.codec.EntityContinuation;
import io.tablestream.core.model.Entity;
import java.util.List;
import java.util.Optional;

/** One page of a query: its entities in key order, and where the next page starts (if anywhere). */
public record Page(List<Entity> entities, Optional<EntityContinuation> next) {
    public Page {
        entities = List.copyOf(entities);
    }
}
