package io.tablestream.core.filter;

import io.tablestream.core.filter.Expression.And;
import io.tablestream.core.filter.Expression.BooleanConstant;
import io.tablestream.core.filter.Expression.BooleanProperty;
import io.tablestream.core.filter.Expression.Comparison;
import io.tablestream.core.filter.Expression.ConstantComparison;
import io.tablestream.core.filter.Expression.Not;
import io.tablestream.core.filter.Expression.Or;
import io.tablestream.core.filter.Expression.Property;
import io.tablestream.core.filter.Expression.StartsWith;
import io.tablestream.core.filter.FilterLexer.Kind;
import io.tablestream.core.filter.FilterLexer.Token;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmString;
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
            if (left instanceof Group g) {
                return g.expression();
            }
            return left instanceof Call c ? c.expression() : condition((Operand) left);
        }
        lexer.next();
        if (left instanceof Group g) {
            throw FilterError.syntax(operator.position(), "a parenthesized condition cannot be compared with '"
                    + operator.text() + "'; compare a property with a constant.");
        }
        Operand right = operand("a property or a constant after '" + operator.text() + "'");
        if (left instanceof Call c) {
            return comparedCall(c, operator, right);
        }
        return comparison((Operand) left, operator, right);
    }

    /** primary := '(' or ')' | call | operand */
    private Primary primary(int depth) {
        Token open = lexer.peek();
        if (open.kind() != Kind.OPEN) {
            Operand operand = operand("a condition, a property or a constant");
            if (operand instanceof PropertyOperand p && lexer.peek().kind() == Kind.OPEN) {
                return call(p.token());
            }
            return operand;
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

    /**
     * call := name '(' property ',' constant ')', where a word is a function when a '(' follows
     * it (a property never is followed by one). Only {@code startswith} is served; the other
     * functions of OData's filter language are NotImplemented, as the Table service answers them.
     */
    private Call call(Token name) {
        Token open = lexer.next();
        if (!name.text().equals(Filter.STARTS_WITH)) {
            if (Filter.UNSERVED_FUNCTIONS.contains(name.text())) {
                throw FilterError.notImplemented();
            }
            throw FilterError.syntax(open.position(), FilterError.quote(name.text())
                    + " is not a function; the one function of a filter is " + Filter.STARTS_WITH + "(property,'prefix')"
                    + hint(name) + ".");
        }
        Operand subject = operand("a property as the first argument of " + Filter.STARTS_WITH);
        if (subject instanceof PropertyOperand inner && lexer.peek().kind() == Kind.OPEN) {
            call(inner.token()); // NotImplemented when it is another function
            throw FilterError.type(inner.token().position(), "the first argument of " + Filter.STARTS_WITH
                    + " must be a property, not a function call.");
        }
        expect(Kind.COMMA, "',' after the first argument of " + Filter.STARTS_WITH);
        Operand prefix = operand("a String constant as the second argument of " + Filter.STARTS_WITH);
        expect(Kind.CLOSE, "')' to close the '(' of " + Filter.STARTS_WITH + " at position " + open.position());
        String usage = "; it is written " + Filter.STARTS_WITH + "(property,'prefix').";
        if (!(subject instanceof PropertyOperand p)) {
            throw FilterError.type(subject.token().position(), "the first argument of " + Filter.STARTS_WITH
                    + " must be a property, not the constant " + FilterError.shorten(subject.token().text()) + usage);
        }
        if (p.property().kind() == Property.Kind.TIMESTAMP) {
            throw FilterError.type(p.token().position(), p.property().name() + " is an Edm.DateTime property; "
                    + Filter.STARTS_WITH + " takes an Edm.String property" + usage);
        }
        if (!(prefix instanceof ConstantOperand c)) {
            throw FilterError.type(prefix.token().position(), "the second argument of " + Filter.STARTS_WITH
                    + " must be a String constant, not the property " + prefix.token().text() + usage);
        }
        if (!(c.value() instanceof EdmString s)) {
            throw FilterError.type(c.token().position(), "the second argument of " + Filter.STARTS_WITH
                    + " must be a String constant, not the " + c.value().type().odataName() + " constant "
                    + FilterError.shorten(c.token().text()) + usage);
        }
        count(name);
        return new Call(new StartsWith(p.property(), s.value()), name);
    }

    /**
     * A call compared with a Boolean constant, as OData v2 and v3 write it
     * ({@code startswith(Name,'a') eq true}): the call, or its negation.
     */
    private static Expression comparedCall(Call call, Token operatorToken, Operand right) {
        ComparisonOperator operator = operatorToken.operator();
        if (!(right instanceof ConstantOperand c) || !(c.value() instanceof EdmBoolean b)
                || (operator != ComparisonOperator.EQ && operator != ComparisonOperator.NE)) {
            throw FilterError.type(operatorToken.position(), Filter.STARTS_WITH
                    + "(...) is an Edm.Boolean condition; it stands alone or is compared with 'eq true' or 'eq false'.");
        }
        boolean holds = b.value() == (operator == ComparisonOperator.EQ);
        return holds ? call.expression() : new Not(call.expression());
    }

    private void expect(Kind kind, String expected) {
        Token t = lexer.next();
        if (t.kind() != kind) {
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
    private sealed interface Primary permits Group, Call, Operand {
    }

    private record Group(Expression expression) implements Primary {
    }

    /** A function call, e.g. {@code startswith(RowKey,'a')}: a condition. */
    private record Call(Expression expression, Token token) implements Primary {
    }

    private sealed interface Operand extends Primary permits PropertyOperand, ConstantOperand {
        Token token();
    }

    private record PropertyOperand(Property property, Token token) implements Operand {
    }

    private record ConstantOperand(EdmValue value, Token token) implements Operand {
    }
}
