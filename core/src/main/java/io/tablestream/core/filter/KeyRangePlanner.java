package io.tablestream.core.filter;

import io.tablestream.core.filter.Expression.And;
import io.tablestream.core.filter.Expression.BooleanConstant;
import io.tablestream.core.filter.Expression.BooleanProperty;
import io.tablestream.core.filter.Expression.Comparison;
import io.tablestream.core.filter.Expression.ConstantComparison;
import io.tablestream.core.filter.Expression.Not;
import io.tablestream.core.filter.Expression.Or;
import io.tablestream.core.filter.Expression.StartsWith;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.rules.PropertyNames;
import java.util.List;

/**
 * Derives from a filter the values that one or two String properties can have in a match: a
 * superset, never less. The properties must be ones every row has as an Edm.String (PartitionKey
 * and RowKey of an entity, TableName of a table), because then a comparison of them with a String
 * constant is simply true or false, so {@code not} can be pushed down through {@code and} and
 * {@code or} (De Morgan) and turn {@code not (PartitionKey lt 'a')} into {@code PartitionKey ge 'a'}.
 *
 * <p>Each condition yields a range per tracked property, or "nothing" when it can never hold. The
 * ranges of a conjunction intersect per property; the ranges of a disjunction span (hull) per
 * property, a side that can never hold dropping out. {@code startswith} of a tracked property is
 * the range of strings with the prefix. {@code ne}, and conditions on other properties, leave the
 * range as it is. A comparison of a tracked property with a non-String
 * constant can never hold.
 */
final class KeyRangePlanner {
    private static final Bounds ALL = new Bounds(StringRange.ALL, StringRange.ALL);
    private static final Bounds NONE = new Bounds(StringRange.NONE, StringRange.NONE);

    private final String first;
    private final String second;

    private KeyRangePlanner(String first, String second) {
        this.first = first;
        this.second = second;
    }

    static KeyRange keyRange(Expression expression) {
        Bounds b = new KeyRangePlanner(PropertyNames.PARTITION_KEY, PropertyNames.ROW_KEY).bounds(expression, false);
        return b.isNone() ? KeyRange.NONE : new KeyRange(b.first(), b.second());
    }

    static StringRange rangeOf(Expression expression, String property) {
        Bounds b = new KeyRangePlanner(property, null).bounds(expression, false);
        return b.isNone() ? StringRange.NONE : b.first();
    }

    /** The bounds of the rows where {@code expression} (or, when {@code negated}, its negation) holds. */
    private Bounds bounds(Expression expression, boolean negated) {
        if (expression instanceof Not n) {
            return bounds(n.operand(), !negated);
        }
        if (expression instanceof And a) {
            return negated ? span(a.operands(), true) : intersect(a.operands(), false);
        }
        if (expression instanceof Or o) {
            return negated ? intersect(o.operands(), true) : span(o.operands(), false);
        }
        if (expression instanceof Comparison c) {
            return comparison(c, negated);
        }
        if (expression instanceof ConstantComparison c) {
            return c.value() != negated ? ALL : NONE;
        }
        if (expression instanceof BooleanConstant c) {
            return c.value() != negated ? ALL : NONE;
        }
        if (expression instanceof StartsWith s) {
            return startsWith(s, negated);
        }
        if (expression instanceof BooleanProperty p) {
            // a tracked property is a String, never a true Boolean
            return isTracked(p.property().name()) && !negated ? NONE : ALL;
        }
        throw new IllegalStateException("unplanned node " + expression);
    }

    private Bounds comparison(Comparison c, boolean negated) {
        String name = c.property().name();
        if (!isTracked(name)) {
            return ALL;
        }
        if (!(c.constant() instanceof EdmString s)) {
            return negated ? ALL : NONE; // a String never compares with another type
        }
        ComparisonOperator op = negated ? c.operator().complement() : c.operator();
        StringRange range = switch (op) {
            case EQ -> StringRange.exactly(s.value());
            case NE -> StringRange.ALL;
            case GT -> StringRange.greaterThan(s.value());
            case GE -> StringRange.atLeast(s.value());
            case LT -> StringRange.lessThan(s.value());
            case LE -> StringRange.atMost(s.value());
        };
        return name.equals(first) ? bounds(range, StringRange.ALL) : bounds(StringRange.ALL, range);
    }

    /**
     * A prefix of a tracked property is the range of strings that begin with it; its negation
     * lies on both sides of that range, whose hull is everything (or nothing, for the empty
     * prefix, which every string begins with).
     */
    private Bounds startsWith(StartsWith s, boolean negated) {
        String name = s.property().name();
        if (!isTracked(name)) {
            return ALL;
        }
        StringRange range = StringRange.startingWith(s.prefix());
        if (negated) {
            return range.isAll() ? NONE : ALL;
        }
        return name.equals(first) ? bounds(range, StringRange.ALL) : bounds(StringRange.ALL, range);
    }

    private Bounds intersect(List<Expression> operands, boolean negated) {
        Bounds result = ALL;
        for (Expression operand : operands) {
            Bounds b = bounds(operand, negated);
            if (b.isNone()) {
                return NONE;
            }
            result = bounds(result.first().intersect(b.first()), result.second().intersect(b.second()));
            if (result.isNone()) {
                return NONE;
            }
        }
        return result;
    }

    private Bounds span(List<Expression> operands, boolean negated) {
        Bounds result = NONE;
        for (Expression operand : operands) {
            Bounds b = bounds(operand, negated);
            if (b.isNone()) {
                continue;
            }
            result = result.isNone() ? b : new Bounds(result.first().span(b.first()), result.second().span(b.second()));
        }
        return result;
    }

    private boolean isTracked(String name) {
        return name.equals(first) || name.equals(second);
    }

    /** {@link #NONE} when either range is empty, else the pair. */
    private static Bounds bounds(StringRange first, StringRange second) {
        return first.isEmpty() || second.isEmpty() ? NONE : new Bounds(first, second);
    }

    /** The ranges of the first and second tracked property (the second ALL when there is none). */
    private record Bounds(StringRange first, StringRange second) {
        boolean isNone() {
            return first.isEmpty() || second.isEmpty();
        }
    }
}
