/**
 * The {@code $batch} wire format of the Table service (entity group transactions): taking a request
 * body apart into operations, and writing the multipart response. Bytes, header fields and strings
 * only; no HTTP server types.
 *
 * <h2>Reading: {@link io.tablestream.protocol.batch.BatchRequest#parse}</h2>
 * A batch is {@code multipart/mixed} holding either one change set ({@code multipart/mixed} of up to 100
 * {@code application/http} requests) or one lone {@code GET} (the service allows a query only alone in
 * its batch). Accepted, because real clients send them: CRLF or bare-LF line ends, quoted or bare
 * boundaries, a preamble and an epilogue, spaces or tabs after a delimiter, a body without a final line
 * break, a batch ended by a plain delimiter instead of a close delimiter (the REST reference's sample and
 * early JS SDKs), {@code Content-Transfer-Encoding} binary, 8bit or 7bit, {@code Content-ID} as a MIME
 * part header or inside the request, {@code X-HTTP-Method} on a POST, folded header lines (unfolded with
 * one space), an inner {@code Content-Length} (honoured: the body is exactly that long, only whitespace
 * may follow), and empty lines before a request line. Nothing is decoded beyond that: the request target
 * is kept as written and the body as bytes.
 *
 * <p>Rejected with a {@link io.tablestream.core.error.TableServiceException}, never another unchecked
 * exception:
 * <ul>
 *   <li>{@code RequestBodyTooLarge} (413): a body over 4 MiB;</li>
 *   <li>{@code InvalidInput} (400), no index: a Content-Type that is not {@code multipart/mixed} with a
 *       valid boundary, a body without the boundary, an empty batch or change set, more than one part in
 *       the batch (two change sets, or a query beside a change set), a batch part that is neither, a
 *       change set sharing the batch's boundary, a malformed lone query;</li>
 *   <li>{@code InvalidInput} (400) at index 0 with the service's message "The batch request operation
 *       exceeds the maximum 100 changes per change set.": a change set of more than 100 operations
 *       (the service answers this inside a 202 response, attributed to operation 0);</li>
 *   <li>at the operation's index: a part that is not {@code application/http} (a nested multipart among
 *       them), an unsupported transfer encoding, a malformed request line (method, target, version), a GET
 *       inside the change set, a header line without a colon or with a control character, a body shorter
 *       than its {@code Content-Length} or with bytes after it, a part with no closing delimiter (cut
 *       short), {@code XMethodIncorrectCount}/{@code XMethodNotUsingPost}/{@code XMethodIncorrectValue}
 *       for a misused {@code X-HTTP-Method}.</li>
 * </ul>
 * An exception with an index is answered like a failed operation, inside a 202 response
 * ({@link io.tablestream.protocol.batch.BatchResponse#failedChangeSet}); one without is answered as a
 * plain error response, as the service answers a batch it cannot take apart (an empty batch gets a
 * plain 400). Header sections are capped at 100 fields and 64 KiB, so no input makes unbounded work.
 *
 * <h2>Writing: {@link io.tablestream.protocol.batch.BatchResponse}</h2>
 * {@link io.tablestream.protocol.batch.OperationResponse} gives each outcome the header fields the service
 * writes; {@link io.tablestream.protocol.batch.BatchResponse} lays them out in the service's multipart
 * shape, which the SDKs' response parsers depend on.
 */
package io.tablestream.protocol.batch;
