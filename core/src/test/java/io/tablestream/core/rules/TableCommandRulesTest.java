package io.tablestream.core.rules;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TablePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TableCommandRulesTest {
    private static final CommandHeader HEADER = new CommandHeader("c", "acct", 0L, null, null);
    private static final TableName ORDERS = TableName.of("Orders");

    private static List<AccessPolicy> policies(int n) {
        List<AccessPolicy> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(AccessPolicy.of("p" + i, null, null, TablePermission.parse("r")));
        }
        return out;
    }

    private static void assertRejected(TableCommand command, String messagePart) {
        assertThatThrownBy(() -> CommandRules.validate(command))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> org.assertj.core.api.Assertions.assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT))
                .hasMessageContaining(messagePart);
    }

    @Test
    void acceptsUpToFivePoliciesAndNone() {
        assertThatCode(() -> CommandRules.validate(TableCommand.setAcl(HEADER, ORDERS, policies(5)))).doesNotThrowAnyException();
        assertThatCode(() -> CommandRules.validate(TableCommand.setAcl(HEADER, ORDERS, List.of()))).doesNotThrowAnyException();
    }

    @Test
    void rejectsASixthPolicy() {
        assertRejected(TableCommand.setAcl(HEADER, ORDERS, policies(6)), "at most 5");
    }

    @Test
    void rejectsAPolicyIdGivenTwice() {
        assertRejected(TableCommand.setAcl(HEADER, ORDERS, List.of(
                AccessPolicy.of("same", null, null, Set.of()), AccessPolicy.of("same", null, null, Set.of()))), "'same'");
    }

    @Test
    void policyIdsDifferingOnlyInCaseAreDistinct() {
        assertThatCode(() -> CommandRules.validate(TableCommand.setAcl(HEADER, ORDERS, List.of(
                AccessPolicy.of("Id", null, null, Set.of()), AccessPolicy.of("id", null, null, Set.of())))))
                .doesNotThrowAnyException();
    }

    @Test
    void rejectsPoliciesOnACreateAndATtlOnASetAcl() {
        assertRejected(new TableCommand(HEADER, TableCommand.Operation.CREATE, ORDERS, null, policies(1)),
                "Only a Set Table ACL");
        assertRejected(new TableCommand(HEADER, TableCommand.Operation.SET_ACL, ORDERS, 60, List.of()), "no default TTL");
    }

    @Test
    void rejectsANonPositiveTableDefaultTtl() {
        assertRejected(TableCommand.create(HEADER, ORDERS, 0), "TTLInSeconds");
    }
}
