/**
 * The Table service's HTTP protocol, shared by the ingest and query APIs. Sub-packages by
 * capability: {@code auth} (SharedKey, SharedKeyLite, SAS), {@code batch} ($batch multipart),
 * {@code xml} (ACL and service properties), {@code request} (what a request addresses and does:
 * the resource path and the operation), {@code http} (request context, routing, errors),
 * {@code write} (one entity write as the protocol states it, alone or inside a change set).
 */
package io.tablestream.protocol;
