package io.tablestream.processor.decide;

import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.rules.EntityRules;
import io.tablestream.core.rules.TimeToLive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Decides an entity command against the current state of its rows, as the Table service would:
 * existence, If-Match, merge versus replace, delete; a batch applies all or none and a failure
 * names the failing operation. Pure: the caller supplies the current rows, the Timestamp of the
 * write and the table's default TTL, and applies the returned changes.
 *
 * <p>The command must already have passed {@link io.tablestream.core.rules.CommandRules}: each
 * RowKey appears once, so every operation is decided against the state before the command.
 */
public final class EntityDecider {
    private EntityDecider() {
    }

    /**
     * @param current the live (unexpired) stored entity for a RowKey of the command's partition, or null
     * @param timestamp the Timestamp every version written by this command gets
     * @param tableDefaultTtlSeconds the table's default TTL, or null
     */
    public static EntityDecision decide(EntityCommand command, Function<String, StoredEntity> current,
                                        EdmDateTime timestamp, Integer tableDefaultTtlSeconds) {
        List<EntityOperation> ops = command.operations();
        List<Outcome.OperationResult> results = new ArrayList<>(ops.size());
        List<EntityChange> changes = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            EntityOperation op = ops.get(i);
            try {
                EntityChange change = decideOne(command, op, current.apply(op.rowKey()), timestamp,
                        tableDefaultTtlSeconds);
                changes.add(change);
                results.add(new Outcome.OperationResult(change.newVersion() == null ? null : timestamp));
            } catch (TableServiceException e) {
                return EntityDecision.failed(new Outcome.Failure(e.errorCode(), e.getMessage(),
                        command.batch() ? i : null));
            }
        }
        return EntityDecision.applied(results, changes);
    }

    private static EntityChange decideOne(EntityCommand command, EntityOperation op, StoredEntity current,
                                          EdmDateTime timestamp, Integer ttl) {
        Entity existing = current == null ? null : current.entity();
        String pk = command.partitionKey();
        return switch (op.type()) {
            case INSERT -> {
                if (existing != null) {
                    throw TableServiceException.of(ErrorCode.ENTITY_ALREADY_EXISTS);
                }
                yield write(EntityChange.Type.INSERTED, command, op, op.properties(), timestamp, ttl);
            }
            case REPLACE -> {
                requireMatch(existing, op.ifMatch());
                yield write(EntityChange.Type.REPLACED, command, op, op.properties(), timestamp, ttl);
            }
            case MERGE -> {
                requireMatch(existing, op.ifMatch());
                yield write(EntityChange.Type.MERGED, command, op, merged(existing, op), timestamp, ttl);
            }
            case INSERT_OR_REPLACE -> write(existing == null ? EntityChange.Type.INSERTED : EntityChange.Type.REPLACED,
                    command, op, op.properties(), timestamp, ttl);
            case INSERT_OR_MERGE -> existing == null
                    ? write(EntityChange.Type.INSERTED, command, op, op.properties(), timestamp, ttl)
                    : write(EntityChange.Type.MERGED, command, op, merged(existing, op), timestamp, ttl);
            case DELETE -> {
                requireMatch(existing, op.ifMatch());
                yield new EntityChange(EntityChange.Type.DELETED, command.tableId(), pk, op.rowKey(), null);
            }
        };
    }

    /** The entity must exist and, when a condition is given, its ETag must satisfy it. */
    private static void requireMatch(Entity existing, String ifMatch) {
        if (existing == null) {
            throw TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND);
        }
        if (ifMatch != null && !existing.etag().satisfies(ifMatch)) {
            throw TableServiceException.of(ErrorCode.UPDATE_CONDITION_NOT_SATISFIED);
        }
    }

    private static Map<String, EdmValue> merged(Entity existing, EntityOperation op) {
        Map<String, EdmValue> props = new LinkedHashMap<>(existing.properties());
        props.putAll(op.properties());
        return props;
    }

    private static EntityChange write(EntityChange.Type type, EntityCommand command, EntityOperation op,
                                      Map<String, EdmValue> properties, EdmDateTime timestamp, Integer ttl) {
        Entity entity = Entity.of(command.partitionKey(), op.rowKey(), properties);
        if (type == EntityChange.Type.MERGED) {
            EntityRules.validate(entity); // a merge can push an entity past the limits
        }
        EdmDateTime expiresAt = TimeToLive.expiresAt(properties, ttl, timestamp);
        return new EntityChange(type, command.tableId(), command.partitionKey(), op.rowKey(),
                new StoredEntity(entity.withVersion(timestamp), expiresAt));
    }
}
