/**
 * One write of an entity as the protocol states it, read the same way whether it came as a request of
 * its own or as an operation of a change set ({@code $batch}, {@code $transactions}): which operation,
 * which table and keys its URL names, its {@code If-Match} condition, its {@code Prefer}ences, the
 * response format asked for, and its body. Turning it into a command (looking up the table, reading the
 * entity, authorizing it, checking the data-model rules) is the write side's job.
 */
package io.tablestream.protocol.write;
