package io.tablestream.processor.decide;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TablePermission;
import io.tablestream.core.model.TableRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableDeciderTest {
    private static final CommandHeader HEADER = new CommandHeader("c", "acct", 0L, null, null);
    private static final EdmDateTime NOW = EdmDateTime.ofEpochTicks(5L);
    private static final TableRecord ACTIVE = TableRecord.active("acct", TableName.of("Orders"), 3L, NOW, null);

    @Test
    void createGivesTheNewIdAndKeepsTheNamesCase() {
        TableDecision d = TableDecider.decide(TableCommand.create(HEADER, TableName.of("MyOrders"), 60), null, 42L, NOW);

        assertThat(d.succeeded()).isTrue();
        assertThat(d.record()).isEqualTo(TableRecord.active("acct", TableName.of("MyOrders"), 42L, NOW, 60));
    }

    @Test
    void createOfAnActiveNameFails() {
        TableDecision d = TableDecider.decide(TableCommand.create(HEADER, TableName.of("ORDERS"), null), ACTIVE, 42L, NOW);

        assertThat(d.failure().code()).isEqualTo(ErrorCode.TABLE_ALREADY_EXISTS);
    }

    @Test
    void deleteRetiresTheActiveRecord() {
        TableDecision d = TableDecider.decide(TableCommand.delete(HEADER, TableName.of("orders")), ACTIVE, 42L, NOW);

        assertThat(d.record().state()).isEqualTo(TableRecord.State.DELETED);
        assertThat(d.record().tableId()).isEqualTo(3L);
        assertThat(d.record().deletedAt()).isEqualTo(NOW);
    }

    @Test
    void deleteOfAMissingTableFailsWithResourceNotFound() {
        TableDecision d = TableDecider.decide(TableCommand.delete(HEADER, TableName.of("orders")), null, 42L, NOW);

        assertThat(d.failure().code()).isEqualTo(ErrorCode.RESOURCE_NOT_FOUND);
    }

    @Test
    void setAclReplacesThePoliciesOfTheActiveTableAndKeepsItsId() {
        List<AccessPolicy> policies = List.of(AccessPolicy.of("r", null, NOW, TablePermission.parse("r")));
        TableRecord withOld = ACTIVE.withAccessPolicies(List.of(AccessPolicy.of("old", null, null, TablePermission.parse("d"))));

        TableDecision d = TableDecider.decide(TableCommand.setAcl(HEADER, TableName.of("ORDERS"), policies), withOld, 42L,
                NOW);

        assertThat(d.succeeded()).isTrue();
        assertThat(d.record()).isEqualTo(ACTIVE.withAccessPolicies(policies));
    }

    @Test
    void setAclOfAMissingTableFails() {
        TableDecision d = TableDecider.decide(TableCommand.setAcl(HEADER, TableName.of("orders"), List.of()), null, 42L, NOW);

        assertThat(d.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(d.record()).isNull();
    }
}
