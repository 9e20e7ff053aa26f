/**
 * What a request addresses and does, free of HTTP machinery: the {@link
 * io.tablestream.protocol.request.ResourcePath} parsed from its URL and the {@link
 * io.tablestream.protocol.request.Operation} resolved from method, path, query and headers. Both
 * {@code auth} (which checks a caller may do the operation on the resource) and {@code http} (which
 * resolves and serves it) depend on this package, and it on neither.
 */
package io.tablestream.protocol.request;
