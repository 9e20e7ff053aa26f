package io.tablestream.core.filter;

import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.rules.PropertyNames;
import java.util.List;
import java.util.Objects;

/**
 * The typed tree of a parsed {@code $filter}. Every node is a condition (Edm.Boolean-valued); the
 * parser has already checked the types, so evaluation never fails: it only answers true or false.
 *
 * <p>Evaluation is two-valued. A comparison with a missing property or a value of another type is
 * false, and {@code not} of a false condition is true.
 */
sealed interface Expression
        permits Expression.Or, Expression.And, Expression.Not, Expression.Comparison,
                Expression.ConstantComparison, Expression.BooleanConstant, Expression.BooleanProperty,
                Expression.StartsWith {

    boolean test(Entity entity);

    boolean test(PropertyLookup row);

    /** Appends the canonical printed form, e.g. {@code (and (eq PartitionKey 'a') (gt Age 30))}. */
    void print(StringBuilder out);

    /** A property a filter names; the system properties of an entity are read from the entity itself. */
    record Property(String name, Kind kind) {
        enum Kind { PARTITION_KEY, ROW_KEY, TIMESTAMP, OTHER }

        public Property {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
        }

        static Property named(String name) {
            return new Property(name, switch (name) {
                case PropertyNames.PARTITION_KEY -> Kind.PARTITION_KEY;
                case PropertyNames.ROW_KEY -> Kind.ROW_KEY;
                case PropertyNames.TIMESTAMP -> Kind.TIMESTAMP;
                default -> Kind.OTHER;
            });
        }
    }

    /** True when any operand is; at least two operands, none of them an {@code Or}. */
    record Or(List<Expression> operands) implements Expression {
        public Or {
            operands = List.copyOf(operands);
        }

        @Override
        public boolean test(Entity entity) {
            for (int i = 0; i < operands.size(); i++) {
                if (operands.get(i).test(entity)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public boolean test(PropertyLookup row) {
            for (int i = 0; i < operands.size(); i++) {
                if (operands.get(i).test(row)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void print(StringBuilder out) {
            printList("or", operands, out);
        }
    }

    /** True when every operand is; at least two operands, none of them an {@code And}. */
    record And(List<Expression> operands) implements Expression {
        public And {
            operands = List.copyOf(operands);
        }

        @Override
        public boolean test(Entity entity) {
            for (int i = 0; i < operands.size(); i++) {
                if (!operands.get(i).test(entity)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean test(PropertyLookup row) {
            for (int i = 0; i < operands.size(); i++) {
                if (!operands.get(i).test(row)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void print(StringBuilder out) {
            printList("and", operands, out);
        }
    }

    /** Boolean negation: true exactly when the operand is false. */
    record Not(Expression operand) implements Expression {
        public Not {
            Objects.requireNonNull(operand, "operand");
        }

        @Override
        public boolean test(Entity entity) {
            return !operand.test(entity);
        }

        @Override
        public boolean test(PropertyLookup row) {
            return !operand.test(row);
        }

        @Override
        public void print(StringBuilder out) {
            out.append("(not ");
            operand.print(out);
            out.append(')');
        }
    }

    /**
     * {@code property operator constant}. A filter written constant-first ({@code 'a' lt PartitionKey})
     * is held property-first with the operator mirrored ({@code PartitionKey gt 'a'}) and
     * {@code constantFirst} set, so that it prints as written.
     */
    record Comparison(Property property, ComparisonOperator operator, EdmValue constant, boolean constantFirst)
            implements Expression {
        public Comparison {
            Objects.requireNonNull(property, "property");
            Objects.requireNonNull(operator, "operator");
            Objects.requireNonNull(constant, "constant");
        }

        @Override
        public boolean test(Entity entity) {
            return switch (property.kind()) {
                case PARTITION_KEY -> EdmComparison.holds(operator, entity.partitionKey(), constant);
                case ROW_KEY -> EdmComparison.holds(operator, entity.rowKey(), constant);
                case TIMESTAMP -> EdmComparison.holds(operator, entity.timestamp(), constant);
                case OTHER -> EdmComparison.holds(operator, entity.property(property.name()), constant);
            };
        }

        @Override
        public boolean test(PropertyLookup row) {
            return EdmComparison.holds(operator, row.property(property.name()), constant);
        }

        @Override
        public void print(StringBuilder out) {
            if (constantFirst) {
                out.append('(').append(operator.mirrored().keyword()).append(' ').append(EdmLiteral.print(constant))
                        .append(' ').append(property.name()).append(')');
            } else {
                out.append('(').append(operator.keyword()).append(' ').append(property.name()).append(' ')
                        .append(EdmLiteral.print(constant)).append(')');
            }
        }
    }

    /** A comparison of two constants of one type ({@code 1 eq 1}): the same answer for every row. */
    record ConstantComparison(EdmValue left, ComparisonOperator operator, EdmValue right) implements Expression {
        public ConstantComparison {
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(operator, "operator");
            Objects.requireNonNull(right, "right");
            if (left.type() != right.type()) {
                throw new IllegalArgumentException("constants of different types: " + left + ", " + right);
            }
        }

        boolean value() {
            return EdmComparison.holds(operator, left, right);
        }

        @Override
        public boolean test(Entity entity) {
            return value();
        }

        @Override
        public boolean test(PropertyLookup row) {
            return value();
        }

        @Override
        public void print(StringBuilder out) {
            out.append('(').append(operator.keyword()).append(' ').append(EdmLiteral.print(left)).append(' ')
                    .append(EdmLiteral.print(right)).append(')');
        }
    }

    /** {@code true} or {@code false} standing as a condition. */
    record BooleanConstant(boolean value) implements Expression {
        @Override
        public boolean test(Entity entity) {
            return value;
        }

        @Override
        public boolean test(PropertyLookup row) {
            return value;
        }

        @Override
        public void print(StringBuilder out) {
            out.append(value);
        }
    }

    /**
     * A property standing alone as a condition ({@code IsActive}): true when the row has it as an
     * Edm.Boolean that is true, the same as {@code IsActive eq true}. Never a system property (the
     * parser rejects those, whose types are known not to be Boolean).
     */
    record BooleanProperty(Property property) implements Expression {
        public BooleanProperty {
            if (property.kind() != Property.Kind.OTHER) {
                throw new IllegalArgumentException("not a Boolean property: " + property.name());
            }
        }

        @Override
        public boolean test(Entity entity) {
            return entity.property(property.name()) instanceof EdmBoolean b && b.value();
        }

        @Override
        public boolean test(PropertyLookup row) {
            return row.property(property.name()) instanceof EdmBoolean b && b.value();
        }

        @Override
        public void print(StringBuilder out) {
            out.append(property.name());
        }
    }

    /**
     * {@code startswith(property,'prefix')}: true when the row has the property as an Edm.String
     * that begins with the prefix (ordinally, code unit by code unit). A missing property or a
     * value of another type makes it false, as it makes a comparison false. Never Timestamp (the
     * parser rejects it: its type is known not to be String).
     */
    record StartsWith(Property property, String prefix) implements Expression {
        public StartsWith {
            Objects.requireNonNull(property, "property");
            Objects.requireNonNull(prefix, "prefix");
            if (property.kind() == Property.Kind.TIMESTAMP) {
                throw new IllegalArgumentException("not a String property: " + property.name());
            }
        }

        @Override
        public boolean test(Entity entity) {
            return switch (property.kind()) {
                case PARTITION_KEY -> entity.partitionKey().startsWith(prefix);
                case ROW_KEY -> entity.rowKey().startsWith(prefix);
                case TIMESTAMP -> false;
                case OTHER -> entity.property(property.name()) instanceof EdmString s && s.value().startsWith(prefix);
            };
        }

        @Override
        public boolean test(PropertyLookup row) {
            return row.property(property.name()) instanceof EdmString s && s.value().startsWith(prefix);
        }

        @Override
        public void print(StringBuilder out) {
            out.append("(startswith ").append(property.name()).append(' ').append(EdmLiteral.print(EdmString.of(prefix)))
                    .append(')');
        }
    }

    private static void printList(String operator, List<Expression> operands, StringBuilder out) {
        out.append('(').append(operator);
        for (Expression operand : operands) {
            out.append(' ');
            operand.print(out);
        }
        out.append(')');
    }
}
