package io.tablestream.processor.internal;

import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.schemas.LogCodec;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogFormatException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry as read from a key-value store holding the tables topic (the global store, for
 * the processor's tasks and, through interactive queries, for the API): tables, and accounts'
 * service properties.
 */
public final class RegistryView {
    private static final Logger LOG = LoggerFactory.getLogger(RegistryView.class);

    private final ReadOnlyKeyValueStore<String, byte[]> store;

    public RegistryView(ReadOnlyKeyValueStore<String, byte[]> store) {
        this.store = store;
    }

    public Optional<TableRecord> byName(String account, TableName name) {
        String key = RegistryKey.byName(account, name);
        return decode(LogCodecs.TABLE_RECORD, key, store.get(key)).filter(TableRecord::isActive);
    }

    public Optional<TableRecord> byId(long tableId) {
        String key = RegistryKey.byId(tableId);
        return decode(LogCodecs.TABLE_RECORD, key, store.get(key));
    }

    public List<TableRecord> list(String account, String fromNameKey, int limit) {
        String from = fromNameKey == null ? RegistryKey.accountStart(account) : RegistryKey.byNameKey(account, fromNameKey);
        List<TableRecord> out = new ArrayList<>(Math.min(limit, 64));
        try (KeyValueIterator<String, byte[]> it = store.range(from, RegistryKey.accountEnd(account))) {
            while (it.hasNext() && out.size() < limit) {
                KeyValue<String, byte[]> kv = it.next();
                decode(LogCodecs.TABLE_RECORD, kv.key, kv.value).filter(TableRecord::isActive).ifPresent(out::add);
            }
        }
        return out;
    }

    /** The account's service properties; the defaults when it never set any. */
    public ServiceProperties serviceProperties(String account) {
        String key = RegistryKey.forAccount(account);
        return decode(LogCodecs.ACCOUNT_RECORD, key, store.get(key))
                .map(AccountRecord::serviceProperties)
                .orElse(ServiceProperties.DEFAULT);
    }

    private static <T> Optional<T> decode(LogCodec<T> codec, String key, byte[] value) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(codec.decode(value));
        } catch (LogFormatException e) {
            LOG.error("Registry record {} cannot be read; treating it as absent", key, e);
            return Optional.empty();
        }
    }
}
