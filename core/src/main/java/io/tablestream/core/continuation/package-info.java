/**
 * Continuation tokens: where a paged Query Tables or Query Entities resumes, passed to the client in
 * {@code x-ms-continuation-*} headers and back as query parameters, each an opaque token that decodes
 * to exactly what was encoded or is refused as {@code InvalidInput}.
 */
package io.tablestream.core.continuation;
