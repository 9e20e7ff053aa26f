package io.tablestream.processor.internal;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.processor.store.StoreReplica;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StateStoreNotAvailableException;
import org.apache.kafka.streams.errors.UnknownStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Opens stores for interactive queries and turns each kind of "not queryable now" into the answer
 * a client should get: every transient state (not started, rebalancing, migrated, restoring, a
 * partition that just moved, a processor that stopped) is {@code ServerBusy} (503, retry); a store
 * that does not exist at all is an internal error.
 */
final class QueryableStores {
    private QueryableStores() {
    }

    static <K, V> ReadOnlyKeyValueStore<K, V> keyValue(KafkaStreams streams, String name, Integer partition) {
        return keyValue(streams, name, partition, StoreReplica.ACTIVE);
    }

    /** With {@link StoreReplica#ACTIVE_OR_STANDBY}, the partition's standby replica when this instance has one. */
    static <K, V> ReadOnlyKeyValueStore<K, V> keyValue(KafkaStreams streams, String name, Integer partition,
                                                     StoreReplica replica) {
        StoreQueryParameters<ReadOnlyKeyValueStore<K, V>> params =
                StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore());
        if (partition != null) {
            params = params.withPartition(partition);
        }
        if (replica == StoreReplica.ACTIVE_OR_STANDBY) {
            params = params.enableStaleStores();
        }
        try {
            return streams.store(params);
        } catch (InvalidStateStoreException e) {
            throw translate(e);
        } catch (IllegalStateException e) {
            // Kafka Streams is not running (not started, stopping, stopped)
            throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                    "The processor of this instance is not running; retry shortly.", e);
        }
    }

    static TableServiceException translate(InvalidStateStoreException e) {
        if (e instanceof UnknownStateStoreException) {
            return TableServiceException.of(ErrorCode.INTERNAL_ERROR, "A state store is missing.", e);
        }
        if (e instanceof StateStoreNotAvailableException) {
            return TableServiceException.of(ErrorCode.SERVER_BUSY,
                    "The processor of this instance is not running; retry shortly.", e);
        }
        // not started, rebalancing, migrated, restoring, or a partition that just moved
        return TableServiceException.of(ErrorCode.SERVER_BUSY,
                "The data is moving between instances or being restored; retry shortly.", e);
    }
}
