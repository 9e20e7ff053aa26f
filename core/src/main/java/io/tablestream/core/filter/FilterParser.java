package io.tablestream.core.filter;

import io.tablestream.core.filter.Expression.And;
import io.tablestream.core.filter.Expression.BooleanConstant;
import io.tablestream.core.filter.Expression.BooleanProperty;
import io.tablestream.core.filter.Expression.Comparison;
import io.tablestream.core.filter.Expression.ConstantComparison;
import io.tablestream.core.filter.Expression.Not;
import io.tablestream.core.filter.Expression.Or;
import io.tablestream.core.filter.Expression.Property;
import io.tablestream.core.filter.FilterLexer.Kind;
import io.tablestream.core.filter.FilterLexer.Token;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.rules.Limits;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Recursive descent over the grammar in {@link Filter}, one method per precedence level, checking
 * types as it builds the tree. Nesting is capped, so no input can exhaust the stack.
 */
final class FilterParser {
    private static final Set<String> KEYWORDS = Set.of(
            "and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le", "true", "false", "null");

    private final FilterLexer lexer;
    private int comparisons;

    private FilterParser(String text) {
        this.lexer = new FilterLexer(text);
    }

    /** The tree of a non-blank filter, or a {@code TableServiceException} (InvalidInput). */
    static Expression parse(String text) {
        if (text.length() > Filter.MAX_LENGTH) {
            throw FilterError.limit(Filter.MAX_LENGTH,
                    "the filter is " + text.length() + " characters long; at most " + Filter.MAX_LENGTH + " are allowed.");
        }
        FilterParser parser = new FilterParser(text);
        Expression expression = parser.or(0);
        Token end = parser.lexer.next();
        if (end.kind() != Kind.END) {
            String detail = end.kind() == Kind.CLOSE ? "')' closes no '('." :
                    "expected 'and', 'or' or the end of the filter, found " + end.describe() + hint(end) + ".";
            throw FilterError.syntax(end.position(), detail);
        }
        return expression;
    }

    /** or := and ('or' and)* */
    private Expression or(int depth) {
        Expression first = and(depth);
        if (lexer.peek().kind() != Kind.OR) {
            return first;
        }
        List<Expression> operands = new ArrayList<>();
        addFlattened(operands, first, true);
        while (lexer.peek().kind() == Kind.OR) {
            lexer.next();
            addFlattened(operands, and(depth), true);
        }
        return new Or(operands);
    }

    /** and := not ('and' not)* */
    private Expression and(int depth) {
        Expression first = not(depth);
        if (lexer.peek().kind() != Kind.AND) {
            return first;
        }
        List<Expression> operands = new ArrayList<>();
        addFlattened(operands, first, false);
        while (lexer.peek().kind() == Kind.AND) {
            lexer.next();
            addFlattened(operands, not(depth), false);
        }
        return new And(operands);
    }

    /** not := 'not' not | comparison */
    private Expression not(int depth) {
        Token t = lexer.peek();
        if (t.kind() != Kind.NOT) {
            return comparison(depth);
        }
        lexer.next();
        checkDepth(depth + 1, t);
        return new Not(not(depth + 1));
    }

    /** comparison := primary (operator operand)? */
    private Expression comparison(int depth) {
        Primary left = primary(depth);
        Token operator = lexer.peek();
        if (operator.kind() != Kind.COMPARISON) {
            return left instanceof Group g ? g.expression() : condition((Operand) left);
        }
        lexer.next();
        if (left instanceof Group g) {
            throw FilterError.syntax(operator.position(), "a parenthesized condition cannot be compared with '"
                    + operator.text() + "'; compare a property with a constant.");
        }
        Operand right = operand("a property or a constant after '" + operator.text() + "'");
        return comparison((Operand) left, operator, right);
    }

    /** primary := '(' or ')' | operand */
    private Primary primary(int depth) {
        Token open = lexer.peek();
        if (open.kind() != Kind.OPEN) {
            return operand("a condition, a property or a constant");
        }
        lexer.next();
        checkDepth(depth + 1, open);
        Expression inner = or(depth + 1);
        Token close = lexer.next();
        if (close.kind() != Kind.CLOSE) {
            throw FilterError.syntax(close.position(), "expected ')' to close the '(' at position " + open.position()
                    + ", found " + close.describe() + hint(close) + ".");
        }
        return new Group(inner);
    }

    /** operand := property | constant */
    private Operand operand(String expected) {
        Token t = lexer.next();
        switch (t.kind()) {
            case PROPERTY:
                return new PropertyOperand(Property.named(t.text()), t);
            case CONSTANT:
                return new ConstantOperand(t.constant(), t);
            case NULL:
                throw FilterError.syntax(t.position(), "'null' is not supported: the Table service stores no"
                        + " null values (a missing property makes every comparison false).");
            default:
                throw FilterError.syntax(t.position(), "expected " + expected + ", found " + t.describe() + hint(t) + ".");
        }
    }

    private Expression comparison(Operand left, Token operatorToken, Operand right) {
        ComparisonOperator operator = operatorToken.operator();
        if (left instanceof PropertyOperand p && right instanceof PropertyOperand q) {
            throw FilterError.type(operatorToken.position(), "'" + p.property().name() + " " + operator.keyword()
                    + " " + q.property().name() + "' compares two properties; one side of a comparison must be a constant"
                    + hint(p.token()) + hint(q.token()) + ".");
        }
        count(operatorToken);
        if (left instanceof PropertyOperand p) {
            return new Comparison(p.property(), operator, ((ConstantOperand) right).value(), false);
        }
        ConstantOperand c = (ConstantOperand) left;
        if (right instanceof PropertyOperand p) {
            return new Comparison(p.property(), operator.mirrored(), c.value(), true);
        }
        ConstantOperand d = (ConstantOperand) right;
        if (c.value().type() != d.value().type()) {
            throw FilterError.type(operatorToken.position(), "cannot compare the " + c.value().type().odataName()
                    + " constant " + FilterError.shorten(c.token().text()) + " with the " + d.value().type().odataName()
                    + " constant " + FilterError.shorten(d.token().text()) + ".");
        }
        return new ConstantComparison(c.value(), operator, d.value());
    }

    /** An operand standing where a condition must be: a Boolean constant, or a property taken as Boolean. */
    private Expression condition(Operand operand) {
        if (operand instanceof ConstantOperand c) {
            if (c.value() instanceof EdmBoolean b) {
                return new BooleanConstant(b.value());
            }
            throw FilterError.type(c.token().position(), "the " + c.value().type().odataName() + " constant "
                    + FilterError.shorten(c.token().text()) + " is not a condition; and, or, not and the filter"
                    + " itself need Edm.Boolean operands.");
        }
        PropertyOperand p = (PropertyOperand) operand;
        String knownType = switch (p.property().kind()) {
            case PARTITION_KEY, ROW_KEY -> "Edm.String";
            case TIMESTAMP -> "Edm.DateTime";
            case OTHER -> null;
        };
        if (knownType != null) {
            throw FilterError.type(p.token().position(), p.property().name() + " is an " + knownType
                    + " property, not a condition; compare it with a constant.");
        }
        count(p.token());
        return new BooleanProperty(p.property());
    }

    private void count(Token at) {
        if (++comparisons > Limits.MAX_FILTER_COMPARISONS) {
            throw FilterError.limit(at.position(), "a filter may hold at most " + Limits.MAX_FILTER_COMPARISONS
                    + " comparisons; this is comparison " + comparisons + ".");
        }
    }

    private static void checkDepth(int depth, Token at) {
        if (depth > Filter.MAX_NESTING) {
            throw FilterError.limit(at.position(), "parentheses and 'not' nest deeper than "
                    + Filter.MAX_NESTING + " levels.");
        }
    }

    private static void addFlattened(List<Expression> operands, Expression operand, boolean or) {
        if (or && operand instanceof Or o) {
            operands.addAll(o.operands());
        } else if (!or && operand instanceof And a) {
            operands.addAll(a.operands());
        } else {
            operands.add(operand);
        }
    }

    /** A hint for a word that is a keyword in the wrong case ({@code AND}, {@code Null}). */
    private static String hint(Token t) {
        return t.kind() == Kind.PROPERTY && KEYWORDS.contains(t.text().toLowerCase(Locale.ROOT))
                ? " (operators and null are lower case)" : "";
    }

    /** What the primary level yields: a parenthesized condition or an operand. */
    private sealed interface Primary permits Group, Operand {
    }

    private record Group(Expression expression) implements Primary {
    }

    private sealed interface Operand extends Primary permits PropertyOperand, ConstantOperand {
        Token token();
    }

    private record PropertyOperand(Property property, Token token) implements Operand {
    }

    private record ConstantOperand(EdmValue value, Token token) implements Operand {
    }
}
