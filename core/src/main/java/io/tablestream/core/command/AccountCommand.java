package io.tablestream.core.command;

import io.tablestream.core.model.ServicePropertiesUpdate;
import java.util.Objects;

/**
 * A change to an account's settings: Set Table Service Properties. Keyed in the log by the
 * account alone, so one task decides every change to an account's settings, in order.
 *
 * @param serviceProperties the groups of settings to replace; the groups it leaves out are kept
 *     (see {@link io.tablestream.core.model.ServiceProperties#merge})
 */
public record AccountCommand(CommandHeader header, ServicePropertiesUpdate serviceProperties) implements Command {
    public AccountCommand {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(serviceProperties, "serviceProperties");
    }

    public static AccountCommand setServiceProperties(CommandHeader header, ServicePropertiesUpdate update) {
        return new AccountCommand(header, update);
    }
}
