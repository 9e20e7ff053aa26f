/**
 * The XML bodies of the Table service: {@code SignedIdentifiers} (Get/Set Table ACL) and
 * {@code StorageServiceProperties} (Get/Set Table Service Properties). Parsing uses the JDK's StAX
 * reader with DTDs refused, external resolution off and the input bounded; writing produces the
 * service's exact bytes. Failures are {@code TableServiceException}s with the service's codes.
 */
package io.tablestream.protocol.xml;
