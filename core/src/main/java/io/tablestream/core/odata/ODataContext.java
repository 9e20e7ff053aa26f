package io.tablestream.core.odata;

import io.tablestream.core.model.TableName;
import java.util.Objects;

/**
 * What a response writer needs to know about where it is answering from: the service base URL
 * (scheme, host, port and, in path-style addressing, the account: e.g.
 * {@code http://127.0.0.1:10002/devstoreaccount1}), the account name (for {@code odata.type}), and,
 * for entity responses, the table.
 *
 * @param baseUrl the service root, without a trailing slash
 * @param accountName the storage account name
 * @param table the table entity responses are about; {@code null} for service-level responses
 */
public record ODataContext(String baseUrl, String accountName, TableName table) {

    public ODataContext {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(accountName, "accountName");
        while (baseUrl.endsWith("/")) {
            baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
        }
    }

    /** A context for service-level responses (Query Tables, Create Table, errors). */
    public static ODataContext forService(String baseUrl, String accountName) {
        return new ODataContext(baseUrl, accountName, null);
    }

    /** The same service, answering about {@code table}. */
    public ODataContext withTable(TableName table) {
        return new ODataContext(baseUrl, accountName, Objects.requireNonNull(table, "table"));
    }

    /** The entity's URL, e.g. {@code http://h/acct/Orders(PartitionKey='p',RowKey='r')} (Location, DataServiceId). */
    public String entityUrl(String partitionKey, String rowKey) {
        return ODataUrls.entityId(this, partitionKey, rowKey);
    }

    /** The table's URL, e.g. {@code http://h/acct/Tables('Orders')}. */
    public String tableUrl(TableName table) {
        return ODataUrls.tableId(this, table);
    }

    TableName requireTable() {
        if (table == null) {
            throw new IllegalStateException("This response needs an ODataContext with a table");
        }
        return table;
    }
}
