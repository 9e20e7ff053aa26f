package io.tablestream.processor.decide;

import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.ServiceProperties;

/**
 * Decides account commands: Set Table Service Properties merges the groups it carries into the
 * account's stored properties (each replacing the stored group whole), starting from the defaults
 * for an account that never set any. It cannot fail once the command decoded. Pure: the caller
 * supplies the account's current record (or null).
 */
public final class AccountDecider {
    private AccountDecider() {
    }

    /** The account's record after {@code command}. */
    public static AccountRecord decide(AccountCommand command, AccountRecord current) {
        if (current != null && !current.account().equals(command.account())) {
            throw new IllegalArgumentException("the record of account '" + current.account()
                    + "' cannot decide a command of account '" + command.account() + "'");
        }
        ServiceProperties base = current == null ? ServiceProperties.DEFAULT : current.serviceProperties();
        return AccountRecord.of(command.account(), ServiceProperties.merge(base, command.serviceProperties()));
    }
}
