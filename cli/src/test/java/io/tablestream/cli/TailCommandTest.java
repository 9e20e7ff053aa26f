package io.tablestream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TailCommandTest {
    private static final EdmDateTime AT = EdmDateTime.of(Instant.parse("2026-11-27T10:00:00Z"));

    private static ChangeEvent event(String account, String table, EntityChange change) {
        return new ChangeEvent(account, TableName.of(table), change, "c1", "tester", AT);
    }

    @Test
    void showsATablesDeletionOncePerTableThoughEveryPartitionPublishesIt() {
        TailCommand.TableChanges changes = new TailCommand.TableChanges("acct", "orders");
        List<ChangeEvent> feed = List.of(
                event("acct", "Orders", EntityChange.partitionDeleted(7, "p")),
                event("acct", "Orders", EntityChange.tableDeleted(7)),   // partition 0's copy
                event("acct", "Orders", EntityChange.tableDeleted(7)),   // partition 1's copy
                event("acct", "Orders", EntityChange.tableDeleted(7)),   // partition 2's copy
                event("acct", "Orders", EntityChange.tableDeleted(9)),   // the re-created table, deleted again
                event("acct", "Orders", EntityChange.tableDeleted(9)),
                event("acct", "Other", EntityChange.tableDeleted(8)),
                event("other", "Orders", EntityChange.tableDeleted(10)));

        assertThat(feed.stream().filter(changes::shows).map(e -> e.change().type() + "@" + e.change().tableId()))
                .containsExactly("PARTITION_DELETED@7", "TABLE_DELETED@7", "TABLE_DELETED@9");
    }
}
