/**
 * CORS as the Table service applies an account's rules: preflight ({@code OPTIONS}) answers and the
 * headers of actual cross-origin responses, as pure functions of the rules and the request's
 * headers ({@link io.tablestream.protocol.cors.CorsPolicy}). Free of any HTTP framework.
 */
package io.tablestream.protocol.cors;
