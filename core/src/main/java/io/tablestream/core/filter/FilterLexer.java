package io.tablestream.core.filter;

import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.rules.PropertyNames;
import java.util.Locale;

/**
 * Splits {@code $filter} text into tokens, one at a time. Tokens are separated by whitespace
 * (space, tab, CR, LF) or by the parentheses, commas and quotes that delimit them, so
 * {@code (A eq 1)or(B eq 2)} and {@code startswith(A,'x')} need no further spaces.
 */
final class FilterLexer {
    enum Kind { OPEN, CLOSE, COMMA, AND, OR, NOT, COMPARISON, CONSTANT, NULL, PROPERTY, END }

    /**
     * One token: its kind, where it starts, its source text, and for a comparison its operator, for
     * a constant its value.
     */
    record Token(Kind kind, int position, String text, ComparisonOperator operator, EdmValue constant) {
        String describe() {
            return kind == Kind.END ? "the end of the filter" : FilterError.quote(text);
        }
    }

    private final String input;
    private int pos;
    private Token peeked;

    FilterLexer(String input) {
        this.input = input;
    }

    Token peek() {
        if (peeked == null) {
            peeked = scan();
        }
        return peeked;
    }

    Token next() {
        Token t = peek();
        peeked = null;
        return t;
    }

    static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean endsWord(char c) {
        return isWhitespace(c) || c == '(' || c == ')' || c == ',' || c == '\'' || c == '"';
    }

    private Token scan() {
        int n = input.length();
        while (pos < n && isWhitespace(input.charAt(pos))) {
            pos++;
        }
        int start = pos;
        if (pos >= n) {
            return new Token(Kind.END, pos, "", null, null);
        }
        char c = input.charAt(pos);
        if (c == '(') {
            pos++;
            return new Token(Kind.OPEN, start, "(", null, null);
        }
        if (c == ')') {
            pos++;
            return new Token(Kind.CLOSE, start, ")", null, null);
        }
        if (c == ',') {
            pos++;
            return new Token(Kind.COMMA, start, ",", null, null);
        }
        if (c == '\'') {
            String value = string();
            return new Token(Kind.CONSTANT, start, input.substring(start, pos), null, EdmString.of(value));
        }
        if (c == '"') {
            throw FilterError.syntax(start, "string constants are enclosed in single quotes ('...'), not double quotes.");
        }
        while (pos < n && !endsWord(input.charAt(pos))) {
            pos++;
        }
        String word = input.substring(start, pos);
        if (pos < n && input.charAt(pos) == '\'') {
            if (EdmLiteral.isTypePrefix(word)) {
                String content = string();
                return new Token(Kind.CONSTANT, start, input.substring(start, pos), null,
                        EdmLiteral.typed(word, content, start));
            }
            if (EdmLiteral.isTypePrefix(word.toLowerCase(Locale.ROOT)) || word.equals("x")) {
                throw FilterError.syntax(start, FilterError.quote(word)
                        + " is not a constant prefix; they are written datetime'...', guid'...', binary'...' or X'...'.");
            }
        }
        return word(word, start);
    }

    private Token word(String word, int start) {
        // The service reads the Boolean constants in any case (True, FALSE); operators are lower case.
        if (word.equalsIgnoreCase("true")) {
            return new Token(Kind.CONSTANT, start, word, null, EdmBoolean.TRUE);
        }
        if (word.equalsIgnoreCase("false")) {
            return new Token(Kind.CONSTANT, start, word, null, EdmBoolean.FALSE);
        }
        switch (word) {
            case "and":
                return new Token(Kind.AND, start, word, null, null);
            case "or":
                return new Token(Kind.OR, start, word, null, null);
            case "not":
                return new Token(Kind.NOT, start, word, null, null);
            case "null":
                return new Token(Kind.NULL, start, word, null, null);
            default:
                break;
        }
        ComparisonOperator operator = ComparisonOperator.fromKeyword(word);
        if (operator != null) {
            return new Token(Kind.COMPARISON, start, word, operator, null);
        }
        char first = word.charAt(0);
        if (isDigit(first) || (first == '-' && word.length() > 1 && isDigit(word.charAt(1)))) {
            return new Token(Kind.CONSTANT, start, word, null, EdmLiteral.number(word, start));
        }
        if (PropertyNames.isIdentifier(word)) {
            return new Token(Kind.PROPERTY, start, word, null, null);
        }
        throw FilterError.syntax(start, FilterError.quote(word) + " is not a property name, an operator or a constant.");
    }

    /** The content of the string constant whose opening quote is at {@code pos}; {@code ''} is a quote. */
    private String string() {
        int open = pos;
        int n = input.length();
        StringBuilder unescaped = null;
        int segment = open + 1;
        int i = segment;
        while (true) {
            if (i >= n) {
                throw FilterError.syntax(open, "the string constant starting here has no closing quote.");
            }
            if (input.charAt(i) == '\'') {
                if (i + 1 < n && input.charAt(i + 1) == '\'') {
                    if (unescaped == null) {
                        unescaped = new StringBuilder(i - segment + 16);
                    }
                    unescaped.append(input, segment, i + 1);
                    i += 2;
                    segment = i;
                    continue;
                }
                pos = i + 1;
                if (unescaped == null) {
                    return input.substring(segment, i);
                }
                return unescaped.append(input, segment, i).toString();
            }
            i++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
