/**
 * State stores that survive a crash under exactly-once processing.
 *
 * <p>Kafka Streams 4.3 cannot tell which writes of a RocksDB store were committed when the process
 * dies, so under {@code exactly_once_v2} it wipes every store that was not closed cleanly and
 * restores it from its changelog: after a {@code kill -9} a table of a million rows is rebuilt from
 * scratch. The stores here keep the writes of the open transaction in memory, visible to readers,
 * and write them to RocksDB — together with their changelog offset — only once the transaction has
 * committed ({@link CommitNotifyingProducer} tells them, on the stream thread that committed). On
 * disk a store therefore always holds a committed prefix of its changelog and the offset it reaches,
 * so Kafka Streams restores only what came after (the store manages its own offsets, which Kafka
 * Streams trusts instead of wiping it).
 */
package io.tablestream.processor.internal.state;
