/**
 * The Table service's HTTP protocol, shared by the ingest and query APIs. Sub-packages by
 * capability: {@code auth} (SharedKey, SharedKeyLite, SAS), {@code batch} ($batch multipart),
 * {@code xml} (ACL and service properties), {@code http} (request context, routing, errors).
 */
package io.tablestream.protocol;
