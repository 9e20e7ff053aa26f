package io.tablestream.core.filter;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;

/**
 * The {@code InvalidInput} errors of {@code $filter} and {@code $select} (and the NotImplemented
 * answer to a filter function the service does not serve). Every message starts with
 * its kind and names the character offset (from 0) in the parameter where the problem is:
 * {@code "Syntax error at position 7 of $filter: ..."}.
 */
final class FilterError {
    /** The text is not a well-formed filter. */
    static final String SYNTAX = "Syntax error";
    /** The filter is well formed but combines values of the wrong types. */
    static final String TYPE = "Type error";
    /** The filter is well formed but larger or deeper than the service allows. */
    static final String LIMIT = "Limit exceeded";

    private static final int SHOWN_CHARACTERS = 40;

    private FilterError() {
    }

    static TableServiceException syntax(int position, String detail) {
        return of(SYNTAX, "$filter", position, detail);
    }

    static TableServiceException type(int position, String detail) {
        return of(TYPE, "$filter", position, detail);
    }

    static TableServiceException limit(int position, String detail) {
        return of(LIMIT, "$filter", position, detail);
    }

    /**
     * A function of OData's filter language other than {@code startswith}: NotImplemented, with
     * the Table service's own message for it.
     */
    static TableServiceException notImplemented() {
        return TableServiceException.of(ErrorCode.NOT_IMPLEMENTED,
                "The requested operation is not implemented on the specified resource.");
    }

    static TableServiceException select(int position, String detail) {
        return of(SYNTAX, "$select", position, detail);
    }

    /** {@code text} quoted for a message, cut short when long. */
    static String quote(String text) {
        return "'" + shorten(text) + "'";
    }

    /** {@code text} cut short for a message when long. */
    static String shorten(String text) {
        return text.length() <= SHOWN_CHARACTERS ? text : text.substring(0, SHOWN_CHARACTERS) + "…";
    }

    private static TableServiceException of(String kind, String parameter, int position, String detail) {
        return TableServiceException.of(ErrorCode.INVALID_INPUT,
                kind + " at position " + position + " of " + parameter + ": " + detail);
    }
}
