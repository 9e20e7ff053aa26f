package io.tablestream.protocol.http;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.registry.TableRegistry;

/** Finds the active table a request names, or answers 404 TableNotFound (a name that cannot exist included). */
public final class TableLookup {
    private final TableRegistry registry;

    public TableLookup(TableRegistry registry) {
        this.registry = registry;
    }

    public TableRecord require(String account, String name) {
        if (!TableName.isValid(name)) {
            throw TableServiceException.of(ErrorCode.TABLE_NOT_FOUND, "The table specified does not exist.");
        }
        return registry.byName(account, TableName.of(name))
                .orElseThrow(() -> TableServiceException.of(ErrorCode.TABLE_NOT_FOUND, "The table specified does not exist."));
    }

    public TableRegistry registry() {
        return registry;
    }
}
