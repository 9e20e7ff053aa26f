package io.tablestream.core.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.ServicePropertiesUpdate;
import io.tablestream.core.model.TableName;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommandKeyTest {
    private static final CommandHeader HEADER = new CommandHeader("c", "acct", 0L, null, null);

    @Test
    void setAclIsKeyedLikeTheOtherCommandsOfItsTableName() {
        CommandKey create = CommandKey.of(TableCommand.create(HEADER, TableName.of("Orders"), null));
        CommandKey setAcl = CommandKey.of(TableCommand.setAcl(HEADER, TableName.of("ORDERS"), List.of()));

        assertThat(setAcl).isEqualTo(create);
        assertThat(setAcl.value()).isEqualTo("acct/orders");
    }

    @Test
    void anAccountCommandIsKeyedByTheAccountAlone() {
        CommandKey key = CommandKey.of(AccountCommand.setServiceProperties(HEADER, ServicePropertiesUpdate.NONE));

        assertThat(key).isEqualTo(CommandKey.forAccount("acct"));
        assertThat(key.value()).isEqualTo("acct").doesNotContain("/");
    }
}
