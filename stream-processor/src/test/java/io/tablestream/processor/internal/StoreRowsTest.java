package io.tablestream.processor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.CommandKey;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.TableName;
import io.tablestream.core.storekey.IndexKeys;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.IndexBuild;
import io.tablestream.processor.store.JobKeys;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.processor.store.TransactionKeys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every keyed store row is owned by the command key its commands are written under, read from the row's own key. */
class StoreRowsTest {
    private static final LongFunction<String> ACCOUNTS = id -> id == 7 ? "acct" : "other";

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void entityRowsHistoryExpiryAndIndexEntriesBelongToTheirEntitysCommandKey() {
        EntityKey key = new EntityKey(7, "pk-é", "rk");
        CommandKey owner = CommandKey.forEntity("acct", 7, "pk-é");
        byte[] entity = KeyCodec.encode(key);
        byte[] expiry = ByteBuffer.allocate(Long.BYTES + entity.length).putLong(123L ^ Long.MIN_VALUE).put(entity).array();

        assertThat(StoreRows.owner(StoreNames.ENTITIES, entity, ACCOUNTS)).isEqualTo(owner);
        assertThat(StoreRows.owner(StoreNames.HISTORY, KeyCodec.versionKey(key, EdmDateTime.ofEpochTicks(42)), ACCOUNTS))
                .isEqualTo(owner);
        assertThat(StoreRows.owner(StoreNames.EXPIRY, expiry, ACCOUNTS)).isEqualTo(owner);
        assertThat(StoreRows.owner(StoreNames.INDEXES, IndexKeys.entry(3, new EdmString("red"), key), ACCOUNTS))
                .isEqualTo(owner);
        assertThat(StoreRows.owner(StoreNames.INDEXES, IndexKeys.entry(3, new EdmInt32(-5), key), ACCOUNTS))
                .isEqualTo(owner);
        assertThat(StoreRows.indexBuildKeyOf(IndexKeys.entry(3, new EdmString("red"), key)))
                .isEqualTo(IndexBuild.key(7, 3));
    }

    @Test
    void tableNamesAccountsTransactionsAndPartitionDeletionsBelongToTheKeysTheirCommandsUse() {
        assertThat(StoreRows.owner(StoreNames.TABLE_NAMES, utf8(RegistryKey.byName("acct", TableName.of("Orders"))),
                ACCOUNTS)).isEqualTo(CommandKey.forTable("acct", TableName.of("Orders")));
        assertThat(StoreRows.owner(StoreNames.ACCOUNTS, utf8(RegistryKey.forAccount("acct")), ACCOUNTS))
                .isEqualTo(CommandKey.forAccount("acct"));
        assertThat(StoreRows.owner(StoreNames.TRANSACTIONS, utf8(TransactionKeys.of("acct", "tx-1/2")), ACCOUNTS))
                .isEqualTo(CommandKey.forTransaction("acct", "tx-1/2"));
        assertThat(StoreRows.owner(StoreNames.PARTITION_TABLES, utf8(PartitionDeletions.key(7, "pk-1", 99)), ACCOUNTS))
                .isEqualTo(CommandKey.forEntity("acct", 7, "pk-1"));
        assertThat(StoreRows.owner(StoreNames.JOBS, utf8(JobKeys.status("acct", "job-1")), ACCOUNTS))
                .isEqualTo(CommandKey.forAccount("acct"));
        assertThat(StoreRows.owner(StoreNames.JOBS, utf8(JobKeys.part("job-1")), ACCOUNTS)).isNull();
    }

    @Test
    void tableAnnouncementsArePerPartitionAndPerTaskStoresHaveNoOwner() {
        assertThat(StoreRows.owner(StoreNames.PARTITION_TABLES, utf8(RegistryKey.byId(7)), ACCOUNTS)).isNull();
        assertThatThrownBy(() -> StoreRows.owner(StoreNames.TASK_META, utf8("applied-offset"), ACCOUNTS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StoreRows.owner(StoreNames.INDEX_BUILDS, utf8(IndexBuild.key(7, 3)), ACCOUNTS))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyStoreOfTheTopologyIsEitherKeyedOrPerTaskExceptTheGlobalRegistry() {
        assertThat(StoreNames.ALL).containsExactlyInAnyOrderElementsOf(
                Stream.concat(Stream.concat(StoreRows.KEYED.stream(), StoreRows.PER_TASK.stream()),
                        Stream.of(StoreNames.REGISTRY)).toList());
    }
}
