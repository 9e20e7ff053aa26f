package io.tablestream.query.plan;

import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.storekey.IndexPosition;
import io.tablestream.schemas.StoredEntityCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The format in which an instance returns a partial page (some partitions of a scatter-gather) to
 * the instance merging it: whole entities, whatever {@code $select} asked (the merging instance
 * projects), in the stores' own entity encoding, and the partial page's continuation. Internal to
 * a cluster of one version. Layout: {@code 02}, entity count (int), per entity PartitionKey and
 * RowKey (int length + UTF-8) and the stored-entity bytes (int length + bytes), then {@code 00} or
 * {@code 01} followed by the continuation's PartitionKey and RowKey and its place in an index's
 * order (int length + bytes; length 0 for a query in key order).
 */
public final class PartialPages {
    /** The media type of the format. */
    public static final String CONTENT_TYPE = "application/x-tablestream-partial-page";
    private static final byte VERSION = 2;

    private PartialPages() {
    }

    public static byte[] encode(Page page) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + 128 * page.entities().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeInt(page.entities().size());
            for (Entity e : page.entities()) {
                text(out, e.partitionKey());
                text(out, e.rowKey());
                byte[] value = StoredEntityCodec.encode(new StoredEntity(e, null));
                out.writeInt(value.length);
                out.write(value);
            }
            out.writeBoolean(page.next().isPresent());
            if (page.next().isPresent()) {
                EntityContinuation next = page.next().get();
                text(out, next.partitionKey());
                text(out, next.rowKey());
                byte[] position = next.position() == null ? new byte[0] : next.position().bytes();
                out.writeInt(position.length);
                out.write(position);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** @throws IllegalArgumentException when {@code bytes} are not a partial page */
    public static Page decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readByte() != VERSION) {
                throw new IllegalArgumentException("not a partial page of this version");
            }
            int count = in.readInt();
            if (count < 0 || count > bytes.length) {
                throw new IllegalArgumentException("bad entity count " + count);
            }
            List<Entity> entities = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String pk = text(in, bytes.length);
                String rk = text(in, bytes.length);
                entities.add(StoredEntityCodec.decode(pk, rk, chunk(in, bytes.length)).entity());
            }
            Optional<EntityContinuation> next = Optional.empty();
            if (in.readBoolean()) {
                String pk = text(in, bytes.length);
                String rk = text(in, bytes.length);
                byte[] position = chunk(in, bytes.length);
                next = Optional.of(position.length == 0 ? EntityContinuation.at(pk, rk)
                        : new EntityContinuation(pk, rk, IndexPosition.parse(position)));
            }
            return new Page(entities, next);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a partial page: " + e.getMessage(), e);
        }
    }

    private static void text(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String text(DataInputStream in, int limit) throws IOException {
        return new String(chunk(in, limit), StandardCharsets.UTF_8);
    }

    private static byte[] chunk(DataInputStream in, int limit) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > limit) {
            throw new IOException("bad length " + length);
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }
}
