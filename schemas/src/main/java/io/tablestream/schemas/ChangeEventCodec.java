package io.tablestream.schemas;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.schemas.avro.EntityChanged;

/**
 * The codec of change events: decoding is Avro's (so every schema version is read), encoding writes
 * the Avro single-object form of the current {@code EntityChanged} schema directly — the same
 * bytes Avro's writer produces (a test holds them equal), without its per-value union resolution,
 * since one event is written for every applied entity change.
 */
final class ChangeEventCodec implements LogCodec<ChangeEvent> {
    /** Avro's single-object marker and the current schema's fingerprint (little-endian). */
    private static final byte[] HEADER = AvroBinary.header(EntityChanged.getClassSchema());

    private final LogCodec<ChangeEvent> avro;

    ChangeEventCodec(LogCodec<ChangeEvent> avro) {
        this.avro = avro;
    }

    @Override
    public ChangeEvent decode(byte[] bytes) {
        return avro.decode(bytes);
    }

    @Override
    public byte[] encode(ChangeEvent e) {
        EntityChange c = e.change();
        ByteWriter w = new ByteWriter(128 + (c.newVersion() == null ? 0 : 48 * c.newVersion().entity().properties().size()));
        w.raw(HEADER);
        w.varlong(c.type().ordinal()); // the enum's symbols are in the domain enum's order (a test checks)
        AvroBinary.string(w, e.account());
        w.varlong(c.tableId());
        AvroBinary.string(w, e.tableName().value());
        AvroBinary.string(w, c.partitionKey());
        AvroBinary.string(w, c.rowKey());
        StoredEntity version = c.newVersion();
        if (version == null) {
            w.varlong(0);
        } else {
            w.varlong(1);
            w.varlong(version.entity().timestamp().epochTicks());
            AvroBinary.nullableLong(w, PropertyMapping.ticksOrNull(version.expiresAt()));
            AvroBinary.properties(w, version.entity().properties());
        }
        AvroBinary.nullableString(w, e.commandId());
        AvroBinary.nullableString(w, e.principal());
        w.varlong(e.changedAt().epochTicks());
        return w.toByteArray();
    }
}
