package io.tablestream.core.odata;

import io.tablestream.core.filter.Select;

import io.tablestream.core.model.TableName;
import java.nio.charset.StandardCharsets;

/**
 * The URLs and names in OData control information: {@code odata.metadata}, {@code odata.id},
 * {@code odata.editLink}, {@code odata.type}.
 */
final class ODataUrls {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private ODataUrls() {
    }

    static String entitySetMetadata(ODataContext context, Select projection) {
        return withSelect(context.baseUrl() + "/$metadata#" + context.requireTable().value(), projection);
    }

    static String entityMetadata(ODataContext context, Select projection) {
        return withSelect(context.baseUrl() + "/$metadata#" + context.requireTable().value() + "/@Element", projection);
    }

    private static String withSelect(String url, Select projection) {
        return projection.isAll() ? url : url + "&$select=" + String.join(",", projection.names());
    }

    static String entityType(ODataContext context) {
        return context.accountName() + "." + context.requireTable().value();
    }

    /** {@code Table(PartitionKey='pk',RowKey='rk')}, keys as OData string literals, URL-encoded. */
    static String entityEditLink(ODataContext context, String partitionKey, String rowKey) {
        return context.requireTable().value() + "(PartitionKey='" + keyLiteral(partitionKey)
                + "',RowKey='" + keyLiteral(rowKey) + "')";
    }

    static String entityId(ODataContext context, String partitionKey, String rowKey) {
        return context.baseUrl() + "/" + entityEditLink(context, partitionKey, rowKey);
    }

    static String tablesMetadata(ODataContext context) {
        return context.baseUrl() + "/$metadata#Tables";
    }

    static String tableMetadata(ODataContext context) {
        return context.baseUrl() + "/$metadata#Tables/@Element";
    }

    static String tablesType(ODataContext context) {
        return context.accountName() + ".Tables";
    }

    /** {@code Tables('name')}: table names are alphanumeric, so nothing needs quoting. */
    static String tableEditLink(TableName table) {
        return "Tables('" + table.value() + "')";
    }

    static String tableId(ODataContext context, TableName table) {
        return context.baseUrl() + "/" + tableEditLink(table);
    }

    /**
     * A key as it stands between the quotes of an OData key predicate: single quotes doubled (the OData
     * string literal rule), then every UTF-8 byte that may not appear in a URI path segment
     * percent-encoded. Unreserved characters and the sub-delimiters ({@code !$&'()*+,;=:@}) stay as they
     * are, so ordinary keys read as on the service ({@code Customers(PartitionKey='Customer03',RowKey='Name')}
     * in its documentation) and {@code ins'ert} becomes {@code ins''ert}, {@code a b} {@code a%20b}.
     */
    static String keyLiteral(String key) {
        String quoted = key.replace("'", "''");
        StringBuilder sb = null;
        for (int i = 0; i < quoted.length(); i++) {
            char c = quoted.charAt(i);
            if (isSegmentChar(c)) {
                if (sb != null) {
                    sb.append(c);
                }
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(quoted.length() + 16).append(quoted, 0, i);
            }
            int end = i + 1;
            if (Character.isHighSurrogate(c) && end < quoted.length() && Character.isLowSurrogate(quoted.charAt(end))) {
                end++;
            }
            for (byte b : quoted.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                sb.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
            }
            i = end - 1;
        }
        return sb == null ? quoted : sb.toString();
    }

    private static boolean isSegmentChar(char c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            return true;
        }
        return "-._~!$&'()*+,;=:@".indexOf(c) >= 0;
    }
}
