package io.tablestream.core.filter;

import io.tablestream.core.filter.Expression.And;
import io.tablestream.core.filter.Expression.BooleanProperty;
import io.tablestream.core.filter.Expression.Comparison;
import io.tablestream.core.filter.Expression.StartsWith;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmType;
import io.tablestream.core.model.EdmValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Chooses the condition a secondary index answers: among the terms every match must satisfy (the
 * filter itself, or the operands of a top-level {@code and}), a comparison of an indexed custom
 * property with a constant ({@code eq}, {@code gt}, {@code ge}, {@code lt}, {@code le}; never
 * {@code ne}, which a missing property does not satisfy either, but which selects nearly
 * everything), an indexed property standing alone ({@code IsActive}, i.e. {@code eq true}), or
 * {@code startswith} of an indexed property (the range of String values with the prefix).
 * An {@code eq} wins; else the comparisons of the first property with bounds are intersected
 * ({@code Age ge 18 and Age lt 65}). Binary values are not indexed. Terms under {@code or} or
 * {@code not} are not used: the index would have to be read more than once.
 */
final class IndexPlanner {
    private IndexPlanner() {
    }

    static Optional<IndexCondition> plan(Expression expression, Collection<String> indexed) {
        if (indexed.isEmpty()) {
            return Optional.empty();
        }
        List<Expression> terms = expression instanceof And a ? a.operands() : List.of(expression);
        List<IndexCondition> candidates = new ArrayList<>();
        for (Expression term : terms) {
            IndexCondition c = condition(term, indexed);
            if (c == null) {
                continue;
            }
            if (c.isPoint()) {
                return Optional.of(c);
            }
            candidates.add(c);
        }
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        IndexCondition result = candidates.get(0);
        for (int i = 1; i < candidates.size(); i++) {
            IndexCondition c = candidates.get(i);
            if (c.property().equals(result.property()) && c.type() == result.type()) {
                result = intersect(result, c);
            }
        }
        return Optional.of(result);
    }

    private static IndexCondition condition(Expression term, Collection<String> indexed) {
        if (term instanceof BooleanProperty p && indexed.contains(p.property().name())) {
            return new IndexCondition(p.property().name(), EdmType.BOOLEAN, EdmBoolean.TRUE, true, EdmBoolean.TRUE, true);
        }
        if (term instanceof StartsWith s && s.property().kind() == Expression.Property.Kind.OTHER
                && indexed.contains(s.property().name())) {
            // the String values with the prefix: a range of the index
            StringRange range = StringRange.startingWith(s.prefix());
            return new IndexCondition(s.property().name(), EdmType.STRING, EdmString.of(s.prefix()), true,
                    range.upper() == null ? null : EdmString.of(range.upper()), false);
        }
        if (!(term instanceof Comparison c) || c.property().kind() != Expression.Property.Kind.OTHER
                || !indexed.contains(c.property().name()) || c.constant().type() == EdmType.BINARY) {
            return null;
        }
        String name = c.property().name();
        EdmValue v = c.constant();
        return switch (c.operator()) {
            case EQ -> new IndexCondition(name, v.type(), v, true, v, true);
            case NE -> null;
            case GT -> new IndexCondition(name, v.type(), v, false, null, false);
            case GE -> new IndexCondition(name, v.type(), v, true, null, false);
            case LT -> new IndexCondition(name, v.type(), null, false, v, false);
            case LE -> new IndexCondition(name, v.type(), null, false, v, true);
        };
    }

    /** The tighter bound on each side (both are of one property and type). */
    private static IndexCondition intersect(IndexCondition a, IndexCondition b) {
        EdmValue lower = a.lower();
        boolean lowerInclusive = a.lowerInclusive();
        if (b.lower() != null) {
            int cmp = lower == null ? -1 : compare(lower, b.lower());
            if (cmp < 0 || (cmp == 0 && !b.lowerInclusive())) {
                lower = b.lower();
                lowerInclusive = b.lowerInclusive();
            }
        }
        EdmValue upper = a.upper();
        boolean upperInclusive = a.upperInclusive();
        if (b.upper() != null) {
            int cmp = upper == null ? 1 : compare(upper, b.upper());
            if (cmp > 0 || (cmp == 0 && !b.upperInclusive())) {
                upper = b.upper();
                upperInclusive = b.upperInclusive();
            }
        }
        return new IndexCondition(a.property(), a.type(), lower, lowerInclusive, upper, upperInclusive);
    }

    /** The order of two values of one type, as the filter compares them (NaN never appears as a constant). */
    private static int compare(EdmValue a, EdmValue b) {
        if (EdmComparison.holds(ComparisonOperator.LT, a, b)) {
            return -1;
        }
        return EdmComparison.holds(ComparisonOperator.GT, a, b) ? 1 : 0;
    }
}
