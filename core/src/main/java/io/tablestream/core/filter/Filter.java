package io.tablestream.core.filter;

import io.tablestream.core.model.Entity;
import java.util.Objects;
import java.util.Set;

/**
 * A parsed {@code $filter} of Query Entities or Query Tables: immutable and thread-safe, it tests
 * rows and tells the planner which keys can match.
 *
 * <h2>Language</h2>
 * <pre>
 * filter     := or                                   (blank: every row matches)
 * or         := and ('or' and)*
 * and        := not ('and' not)*
 * not        := 'not' not | comparison
 * comparison := primary (('eq'|'ne'|'gt'|'ge'|'lt'|'le') operand)?
 * primary    := '(' or ')' | call | operand
 * call       := 'startswith' '(' property ',' string-constant ')'
 * operand    := property | constant
 * </pre>
 * So {@code a or b and c} is {@code a or (b and c)}, and {@code not A eq 1 and B} is
 * {@code (not (A eq 1)) and B}. Tokens are separated by whitespace or by the parentheses and quotes
 * that delimit them ({@code (A eq 1)or(B eq 2)} is fine).
 *
 * <p>Operators and {@code null} are lower case only, as OData writes them: the service documents
 * every part of a filter as case-sensitive, and answers {@code Or} with a syntax error (Azurite is
 * laxer; see Azure/Azurite#2512). {@code AND} is read as a property name, and the error then says
 * why it does not fit. The Boolean constants are the exception: the service reads {@code True} and
 * {@code FALSE} as {@code true} and {@code false} (Azure/Azurite#1947 made the emulator do the same).
 *
 * <p>A property is a C# identifier (PartitionKey, RowKey, Timestamp, TableName, or any custom
 * name). Constants, one form per Edm type:
 * <ul>
 * <li>String {@code 'it''s'}: single quotes, a quote doubled inside;</li>
 * <li>Int32 {@code 123}, {@code -5}. An integer without {@code L} that does not fit Int32 is an
 *     error, as the service answers "Unrecognized 'Edm.Int32' literal" (microsoft/AzureStorageExplorer#1382);</li>
 * <li>Int64 {@code 123L} or {@code 123l};</li>
 * <li>Double {@code 1.5}, {@code 2.0}, {@code 1e10}, {@code 1E+20}, {@code -3.25E-2}, and the OData
 *     v3 suffix {@code 2d} / {@code 2.5D}. Not NaN or INF, and no Single ({@code f}) or Decimal
 *     ({@code m}): those are not Table types;</li>
 * <li>Boolean {@code true}, {@code false};</li>
 * <li>DateTime {@code datetime'2008-07-10T00:00:00Z'} (the forms of {@code EdmDateTime.parse});</li>
 * <li>Guid {@code guid'c9da6455-213d-42c9-9a79-3e9149a57833'};</li>
 * <li>Binary {@code X'ABCD'} or {@code binary'ABCD'} (an even number of hex digits).</li>
 * </ul>
 * {@code null} is rejected, as the service rejects {@code Prop eq null} with InvalidInput
 * (Azure/Azurite#2471).
 *
 * <p>{@code startswith(property,'prefix')} (an extension: the Table service answers every filter
 * function with 501 NotImplemented) holds when the property is an Edm.String beginning with the
 * prefix. It is a condition; OData v3's form {@code startswith(Name,'a') eq true} (or
 * {@code eq false}, {@code ne ...}) is read too. Other functions of OData's filter language
 * ({@code endswith}, {@code substringof}, {@code tolower}, ...) are answered 501 NotImplemented,
 * as the service answers them. A word followed by {@code (} is a function call: a property
 * never is.
 *
 * <h2>Types</h2>
 * Checked while parsing; a type error is reported as such, apart from syntax errors:
 * <ul>
 * <li>A comparison needs a constant on at least one side; it may be on either
 *     ({@code 'a' lt PartitionKey}). Comparing two properties is a type error: the service documents
 *     that one side must be a constant. Two constants may be compared only if of one type.</li>
 * <li>Every operand of {@code and}, {@code or}, {@code not}, and the filter itself, must be a
 *     condition: a comparison, {@code true}/{@code false}, or a property standing alone. A property
 *     alone ({@code IsActive}, {@code not IsActive}) means {@code IsActive eq true}; PartitionKey,
 *     RowKey and Timestamp alone are type errors (their types are known not to be Boolean), and so is
 *     any other constant alone. Boolean constants are allowed because the .NET SDK writes
 *     {@code (true and RowKey eq 'x') or ...} (Azure/Azurite#1787).</li>
 * <li>{@code startswith} takes a property, then a String constant. Timestamp (an Edm.DateTime)
 *     is a type error, and so is a constant of another type; a custom property is typed per row,
 *     and a row holding it as another type does not match. A call compares only with a Boolean
 *     constant, by {@code eq} or {@code ne}.</li>
 * <li>The six comparison operators apply to every type, as the service documents; each type has
 *     its order (see below).</li>
 * </ul>
 *
 * <h2>Semantics</h2>
 * Strict and two-valued. A comparison holds only between a value and a constant of the same Edm
 * type, in that type's order: strings ordinal (UTF-16 code units, the key order), numbers
 * numerically (Int32 and Int64 are different types; Double per IEEE 754: NaN is unordered, so
 * only {@code ne} holds against it), DateTime by ticks, Boolean false before true, Binary unsigned
 * lexicographic, Guid by its canonical text (as an unsigned 128-bit number; the same order .NET's
 * {@code Guid.CompareTo} gives). A missing property, or one of another type, makes every comparison
 * false, {@code ne} included: the service does not return an entity lacking {@code Foo} for
 * {@code Foo ne ''} (Azure/Azurite#1929). {@code not} is plain negation, so
 * {@code not (Foo ge 5)} does match an entity lacking {@code Foo}, as users of the service rely on
 * (Azure/azure-storage-net#696). Evaluation never throws.
 *
 * <h2>Limits</h2>
 * At most {@value io.tablestream.core.rules.Limits#MAX_FILTER_COMPARISONS} comparisons (a property
 * alone counts as one), {@value #MAX_NESTING} levels of parentheses and {@code not}, and
 * {@value #MAX_LENGTH} characters.
 *
 * <h2>Errors</h2>
 * {@code InvalidInput} (400), the message starting {@code "Syntax error at position N"},
 * {@code "Type error at position N"} or {@code "Limit exceeded at position N"}, N the offset
 * (from 0) into the filter text; {@code NotImplemented} (501) for a function other than
 * {@code startswith}.
 */
public final class Filter {
    /** Characters of filter text accepted (a guard, far above what a request URL can carry). */
    public static final int MAX_LENGTH = 64 * 1024;
    /** Levels of parentheses and {@code not} accepted. */
    public static final int MAX_NESTING = 100;

    /** The one function a filter may call. */
    static final String STARTS_WITH = "startswith";
    /**
     * The other functions of OData's filter language (versions 2 to 4), which the Table service
     * answers with 501 NotImplemented, and so does Tablestream.
     */
    static final Set<String> UNSERVED_FUNCTIONS = Set.of(
            "substringof", "endswith", "contains", "length", "indexof", "replace", "substring", "tolower",
            "toupper", "trim", "concat", "year", "month", "day", "hour", "minute", "second", "fractionalseconds",
            "date", "time", "totaloffsetminutes", "now", "mindatetime", "maxdatetime", "totalseconds", "round",
            "floor", "ceiling", "isof", "cast");

    private static final Filter ALL = new Filter(new Expression.BooleanConstant(true));

    private final Expression expression;
    private final KeyRange keyRange;

    private Filter(Expression expression) {
        this.expression = expression;
        this.keyRange = KeyRangePlanner.keyRange(expression);
    }

    /** The filter that matches every row (an absent or blank {@code $filter}). */
    public static Filter all() {
        return ALL;
    }

    /**
     * Parses {@code $filter} text (already URL-decoded). {@code null} or blank gives {@link #all()}.
     *
     * @throws io.tablestream.core.error.TableServiceException InvalidInput, for text that is not a
     *         well-formed, well-typed filter within the limits; NotImplemented for a function
     *         other than {@code startswith}
     */
    public static Filter parse(String text) {
        if (text == null || isBlank(text)) {
            return ALL;
        }
        return new Filter(FilterParser.parse(text));
    }

    /** Whether the entity matches. PartitionKey and RowKey are Strings, Timestamp a DateTime. */
    public boolean test(Entity entity) {
        Objects.requireNonNull(entity, "entity");
        return expression.test(entity);
    }

    /** Whether a row that is not an entity matches, e.g. a table seen as {@code TableName}. */
    public boolean test(PropertyLookup row) {
        Objects.requireNonNull(row, "row");
        return expression.test(row);
    }

    /** The keys that can match: a superset of the matches, as tight as the planner can make it. */
    public KeyRange keyRange() {
        return keyRange;
    }

    /**
     * The values {@code property} can have in a match (a superset), e.g. {@code TableName} for Query
     * Tables. Only meaningful for a property every row has as an Edm.String.
     */
    public StringRange rangeOf(String property) {
        return KeyRangePlanner.rangeOf(expression, Objects.requireNonNull(property, "property"));
    }

    /**
     * The condition a secondary index over one of the {@code indexed} properties can answer (see
     * {@link IndexPlanner}), if any: a superset of the matches.
     */
    public java.util.Optional<IndexCondition> indexCondition(java.util.Collection<String> indexed) {
        return IndexPlanner.plan(expression, indexed);
    }

    /**
     * The canonical tree, e.g. {@code (and (eq PartitionKey 'a') (gt Age 30L))}: operators in
     * prefix form, {@code and}/{@code or} flattened, constants in unambiguous literal form
     * ({@code 30}, {@code 30L}, {@code 30.0}, {@code datetime'...'}, {@code guid'...'}, {@code X'..'}).
     */
    public String print() {
        StringBuilder out = new StringBuilder();
        expression.print(out);
        return out.toString();
    }

    @Override
    public String toString() {
        return "Filter" + print();
    }

    private static boolean isBlank(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!FilterLexer.isWhitespace(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
