package io.tablestream.protocol.http;

/** Who may call an endpoint that is not Azure's (under {@code /_}). */
public enum InternalAccess {
    /** Requests signed with an account key (SharedKey, SharedKeyLite): {@code /_cluster}. */
    ACCOUNT_KEY,
    /** Anyone, unsigned: health checks, and what an operator chose to open (metrics, the console's files). */
    ANYONE
}
