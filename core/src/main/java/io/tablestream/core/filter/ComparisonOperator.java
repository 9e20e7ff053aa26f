package io.tablestream.core.filter;

/** The six comparison operators of {@code $filter}, written as OData writes them. */
enum ComparisonOperator {
    EQ("eq"),
    NE("ne"),
    GT("gt"),
    GE("ge"),
    LT("lt"),
    LE("le");

    private final String keyword;

    ComparisonOperator(String keyword) {
        this.keyword = keyword;
    }

    String keyword() {
        return keyword;
    }

    /** The operator for the keyword (case-sensitive), or {@code null}. */
    static ComparisonOperator fromKeyword(String word) {
        switch (word) {
            case "eq":
                return EQ;
            case "ne":
                return NE;
            case "gt":
                return GT;
            case "ge":
                return GE;
            case "lt":
                return LT;
            case "le":
                return LE;
            default:
                return null;
        }
    }

    /** Whether the operator holds for a three-way comparison result {@code c} (left against right). */
    boolean holds(int c) {
        return switch (this) {
            case EQ -> c == 0;
            case NE -> c != 0;
            case GT -> c > 0;
            case GE -> c >= 0;
            case LT -> c < 0;
            case LE -> c <= 0;
        };
    }

    /** IEEE 754 comparison: with a NaN on either side every operator but {@code ne} is false. */
    boolean holds(double left, double right) {
        return switch (this) {
            case EQ -> left == right;
            case NE -> left != right;
            case GT -> left > right;
            case GE -> left >= right;
            case LT -> left < right;
            case LE -> left <= right;
        };
    }

    /** The operator that says the same with its operands swapped: {@code a lt b} is {@code b gt a}. */
    ComparisonOperator mirrored() {
        return switch (this) {
            case EQ -> EQ;
            case NE -> NE;
            case GT -> LT;
            case GE -> LE;
            case LT -> GT;
            case LE -> GE;
        };
    }

    /**
     * The operator that holds exactly when this one does not, for two values of one totally ordered
     * type: {@code not (a lt b)} is {@code a ge b}. (Not for Double, where NaN is unordered.)
     */
    ComparisonOperator complement() {
        return switch (this) {
            case EQ -> NE;
            case NE -> EQ;
            case GT -> LE;
            case GE -> LT;
            case LT -> GE;
            case LE -> GT;
        };
    }
}
