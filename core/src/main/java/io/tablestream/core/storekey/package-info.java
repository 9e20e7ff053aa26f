/**
 * The byte keys of the RocksDB stores, laid out so that RocksDB's byte order is the order the Table
 * service returns entities in.
 *
 * <ul>
 *   <li>{@link io.tablestream.core.storekey.KeyCodec}: the store key of an entity (table id, PartitionKey,
 *       RowKey) and the bounds of key ranges.</li>
 *   <li>{@link io.tablestream.core.storekey.IndexKeys}: the key of an index entry (table id, index id, the
 *       indexed value in an order-preserving form, the entity's keys).</li>
 *   <li>{@link io.tablestream.core.storekey.ByteRange}: a range of store keys a scan covers.</li>
 *   <li>{@link io.tablestream.core.storekey.Cesu8}: the order-preserving string encoding both use.</li>
 * </ul>
 *
 * Nothing here is seen by a client; changing a layout changes what is on disk (see
 * {@link io.tablestream.core.storekey.KeyCodec}'s versioning).
 */
package io.tablestream.core.storekey;
