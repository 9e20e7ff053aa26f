package io.tablestream.core.model;

import java.util.Objects;

/**
 * An entity as the store holds it: the entity (with its Timestamp and ETag) and when it expires.
 *
 * @param expiresAt the instant after which the entity is invisible and due for deletion; {@code null} for never
 */
public record StoredEntity(Entity entity, EdmDateTime expiresAt) {
    public StoredEntity {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(entity.timestamp(), "a stored entity has a Timestamp");
    }

    /** Whether the entity is gone at {@code now} (expired entities are invisible at once). */
    public boolean isExpiredAt(EdmDateTime now) {
        return expiresAt != null && expiresAt.compareTo(now) <= 0;
    }
}
