package io.tablestream.core.odata;

/**
 * A restore request's body (a Tablestream extension), {@code {"TableName":"new","AsOf":"<UTC time>"}},
 * parsed but not validated.
 *
 * @param tableName the new table's name as sent, {@code null} when the body has none
 * @param asOf the point in time as sent, {@code null} when absent (a copy as of the request)
 */
public record RestoreTableBody(String tableName, String asOf) {
}
