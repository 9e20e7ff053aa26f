/**
 * Authentication and authorization of Table service requests, on plain values (no HTTP types):
 * the HTTP layer describes a request as a {@link io.tablestream.protocol.auth.SignedRequest},
 * {@link io.tablestream.protocol.auth.Authentication} turns it into a
 * {@link io.tablestream.protocol.auth.Principal}, and the principal authorizes each
 * {@link io.tablestream.protocol.auth.Access}. One class per scheme: SharedKey and SharedKeyLite,
 * service SAS, account SAS.
 */
package io.tablestream.protocol.auth;
