package io.tablestream.core.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.rules.Limits;
import java.util.Random;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class FilterParserTest {

    @ParameterizedTest(name = "{0}  ==>  {1}")
    @CsvSource(delimiterString = "==>", quoteCharacter = '"', textBlock = """
            # --- every comparison operator ---
            PartitionKey eq 'a'                          ==> (eq PartitionKey 'a')
            RowKey ne 'b'                                ==> (ne RowKey 'b')
            Age gt 30                                    ==> (gt Age 30)
            Age ge -5                                    ==> (ge Age -5)
            Age lt 2147483647                            ==> (lt Age 2147483647)
            Age le -2147483648                           ==> (le Age -2147483648)
            # --- Int32 / Int64 ---
            Age eq 007                                   ==> (eq Age 7)
            Age eq -0                                    ==> (eq Age 0)
            Big eq 123L                                  ==> (eq Big 123L)
            Big eq 123l                                  ==> (eq Big 123L)
            Big eq 2147483648L                           ==> (eq Big 2147483648L)
            Big eq 9223372036854775807L                  ==> (eq Big 9223372036854775807L)
            Big eq -9223372036854775808L                 ==> (eq Big -9223372036854775808L)
            # --- Double ---
            D eq 1.5                                     ==> (eq D 1.5)
            D eq 2.0                                     ==> (eq D 2.0)
            D eq 1e10                                    ==> (eq D 1.0E10)
            D eq -3.25E-2                                ==> (eq D -0.0325)
            D eq 1E+20                                   ==> (eq D 1.0E20)
            D eq 2d                                      ==> (eq D 2.0)
            D eq 2.5D                                    ==> (eq D 2.5)
            D eq 1.5e3d                                  ==> (eq D 1500.0)
            D eq -0.0                                    ==> (eq D -0.0)
            D eq 1.7976931348623157E308                  ==> (eq D 1.7976931348623157E308)
            # --- Boolean ---
            IsActive eq true                             ==> (eq IsActive true)
            IsActive eq True                             ==> (eq IsActive true)
            IsActive ne FALSE                            ==> (ne IsActive false)
            IsActive eq tRUE                             ==> (eq IsActive true)
            IsActive ne false                            ==> (ne IsActive false)
            # --- DateTime ---
            Timestamp ge datetime'2008-07-10T00:00:00Z'  ==> (ge Timestamp datetime'2008-07-10T00:00:00.0000000Z')
            T lt datetime'2008-07-10T00:00:00.1234567Z'  ==> (lt T datetime'2008-07-10T00:00:00.1234567Z')
            T eq datetime'2008-07-10'                    ==> (eq T datetime'2008-07-10T00:00:00.0000000Z')
            T eq datetime'2008-07-10T02:00+02:00'        ==> (eq T datetime'2008-07-10T00:00:00.0000000Z')
            T eq datetime'1601-01-01T00:00:00Z'          ==> (eq T datetime'1601-01-01T00:00:00.0000000Z')
            T eq datetime'9999-12-31T23:59:59.9999999Z'  ==> (eq T datetime'9999-12-31T23:59:59.9999999Z')
            # --- Guid ---
            Id eq guid'C9DA6455-213D-42C9-9A79-3E9149A57833'  ==> (eq Id guid'c9da6455-213d-42c9-9a79-3e9149a57833')
            Id lt guid'00000000-0000-0000-0000-000000000000'  ==> (lt Id guid'00000000-0000-0000-0000-000000000000')
            # --- Binary ---
            Data eq X'ABCD'                              ==> (eq Data X'ABCD')
            Data eq binary'abcd'                         ==> (eq Data X'ABCD')
            Data gt X'00'                                ==> (gt Data X'00')
            Data eq X''                                  ==> (eq Data X'')
            # --- String ---
            Name eq 'it''s'                              ==> (eq Name 'it''s')
            Name eq ''''                                 ==> (eq Name '''')
            Name eq ''                                   ==> (eq Name '')
            Name eq 'a and b or not c eq d'              ==> (eq Name 'a and b or not c eq d')
            Name eq '(('                                 ==> (eq Name '((')
            Name eq '  padded  '                         ==> (eq Name '  padded  ')
            Name eq 'héllo wörld ✓'                      ==> (eq Name 'héllo wörld ✓')
            Name eq 'X''41'''                            ==> (eq Name 'X''41''')
            # --- property names ---
            TableName ge 'a'                             ==> (ge TableName 'a')
            _x eq 1                                      ==> (eq _x 1)
            Prop1 eq 1                                   ==> (eq Prop1 1)
            Ünïcode eq 1                                 ==> (eq Ünïcode 1)
            datetime eq 1                                ==> (eq datetime 1)
            X eq X'00'                                   ==> (eq X X'00')
            guid ne guid'c9da6455-213d-42c9-9a79-3e9149a57833'  ==> (ne guid guid'c9da6455-213d-42c9-9a79-3e9149a57833')
            # --- constants on the left ---
            'a' lt PartitionKey                          ==> (lt 'a' PartitionKey)
            30 le Age                                    ==> (le 30 Age)
            datetime'2008-07-10' gt Timestamp            ==> (gt datetime'2008-07-10T00:00:00.0000000Z' Timestamp)
            30L ne Big                                   ==> (ne 30L Big)
            # --- two constants of one type ---
            1 eq 1                                       ==> (eq 1 1)
            'a' lt 'b'                                   ==> (lt 'a' 'b')
            1L ge 2L                                     ==> (ge 1L 2L)
            # --- conditions that are not comparisons ---
            true                                         ==> true
            false                                        ==> false
            IsActive                                     ==> IsActive
            not IsActive                                 ==> (not IsActive)
            (true and RowKey eq 'settings') or PartitionKey eq 'p'  ==> (or (and true (eq RowKey 'settings')) (eq PartitionKey 'p'))
            false or PartitionKey eq 'p'                 ==> (or false (eq PartitionKey 'p'))
            # --- and / or / not and their precedence ---
            A eq 1 and B eq 2                            ==> (and (eq A 1) (eq B 2))
            A eq 1 or B eq 2                             ==> (or (eq A 1) (eq B 2))
            A eq 1 or B eq 2 and C eq 3                  ==> (or (eq A 1) (and (eq B 2) (eq C 3)))
            A eq 1 and B eq 2 or C eq 3                  ==> (or (and (eq A 1) (eq B 2)) (eq C 3))
            A eq 1 and B eq 2 or C eq 3 and D eq 4       ==> (or (and (eq A 1) (eq B 2)) (and (eq C 3) (eq D 4)))
            (A eq 1 or B eq 2) and C eq 3                ==> (and (or (eq A 1) (eq B 2)) (eq C 3))
            A eq 1 and (B eq 2 or C eq 3)                ==> (and (eq A 1) (or (eq B 2) (eq C 3)))
            a or b and c                                 ==> (or a (and b c))
            not a and b                                  ==> (and (not a) b)
            not a or b                                   ==> (or (not a) b)
            not A eq 1 and B eq 2                        ==> (and (not (eq A 1)) (eq B 2))
            not (A eq 1 and B eq 2)                      ==> (not (and (eq A 1) (eq B 2)))
            not not A eq 1                               ==> (not (not (eq A 1)))
            not (not (A eq 1))                           ==> (not (not (eq A 1)))
            a and not b                                  ==> (and a (not b))
            # --- flattening and redundant parentheses ---
            A eq 1 and B eq 2 and C eq 3                 ==> (and (eq A 1) (eq B 2) (eq C 3))
            (A eq 1 and B eq 2) and C eq 3               ==> (and (eq A 1) (eq B 2) (eq C 3))
            A eq 1 and (B eq 2 and C eq 3)               ==> (and (eq A 1) (eq B 2) (eq C 3))
            A eq 1 or (B eq 2 or C eq 3)                 ==> (or (eq A 1) (eq B 2) (eq C 3))
            ((A eq 1))                                   ==> (eq A 1)
            (((((A eq 1)))))                             ==> (eq A 1)
            (a) and (b)                                  ==> (and a b)
            # --- spacing ---
            (A eq 1)or(B eq 2)                           ==> (or (eq A 1) (eq B 2))
            Name eq 'x'and Age eq 1                      ==> (and (eq Name 'x') (eq Age 1))
            A  eq   1                                    ==> (eq A 1)
            not(A eq 1)                                  ==> (not (eq A 1))
            A eq 1 and(B eq 2)                           ==> (and (eq A 1) (eq B 2))
            Name eq'x'                                   ==> (eq Name 'x')
            ( A eq 1 )                                   ==> (eq A 1)
            # --- startswith ---
            startswith(RowKey,'abc')                     ==> (startswith RowKey 'abc')
            startswith( PartitionKey , 'a b' )           ==> (startswith PartitionKey 'a b')
            startswith(Name,'it''s')                     ==> (startswith Name 'it''s')
            startswith(Name,'')                          ==> (startswith Name '')
            startswith(TableName,'Ord')                  ==> (startswith TableName 'Ord')
            not startswith(RowKey,'a')                   ==> (not (startswith RowKey 'a'))
            not(startswith(RowKey,'a'))                  ==> (not (startswith RowKey 'a'))
            startswith(RowKey,'a') eq true               ==> (startswith RowKey 'a')
            startswith(RowKey,'a') eq false              ==> (not (startswith RowKey 'a'))
            startswith(RowKey,'a') ne true               ==> (not (startswith RowKey 'a'))
            startswith(RowKey,'a') ne False              ==> (startswith RowKey 'a')
            PartitionKey eq 'p' and startswith(RowKey,'2026-')  ==> (and (eq PartitionKey 'p') (startswith RowKey '2026-'))
            startswith(RowKey,'a')or startswith(RowKey,'b')     ==> (or (startswith RowKey 'a') (startswith RowKey 'b'))
            startswith eq 'x'                            ==> (eq startswith 'x')
            startswith                                   ==> startswith
            # --- typical queries ---
            PartitionKey eq 'a' and RowKey ge 'x' and RowKey lt 'y'  ==> (and (eq PartitionKey 'a') (ge RowKey 'x') (lt RowKey 'y'))
            PartitionKey eq 'Sales' and (Age gt 30L or Name eq 'Smith')  ==> (and (eq PartitionKey 'Sales') (or (gt Age 30L) (eq Name 'Smith')))
            PartitionKey ge 'a' and PartitionKey lt 'b' and not IsDeleted  ==> (and (ge PartitionKey 'a') (lt PartitionKey 'b') (not IsDeleted))
            """)
    void printsTheTreeOfEachValidFilter(String filter, String tree) {
        assertThat(Filter.parse(filter).print()).isEqualTo(tree);
    }

    @ParameterizedTest(name = "{0}  ==>  {1}")
    @CsvSource(delimiterString = "==>", quoteCharacter = '"', textBlock = """
            # --- unterminated strings ---
            Name eq 'abc                     ==> Syntax error at position 8
            '                                ==> Syntax error at position 0
            Name eq 'it''s                   ==> Syntax error at position 8
            T eq datetime'2008-07-10         ==> Syntax error at position 13
            # --- unbalanced parentheses ---
            (A eq 1                          ==> Syntax error at position 7
            ((A eq 1)                        ==> Syntax error at position 9
            A eq 1)                          ==> Syntax error at position 6
            )                                ==> Syntax error at position 0
            ()                               ==> Syntax error at position 1
            (A eq 1))                        ==> Syntax error at position 8
            # --- dangling operators, missing operands ---
            A eq                             ==> Syntax error at position 4
            A eq 1 and                       ==> Syntax error at position 10
            and A eq 1                       ==> Syntax error at position 0
            or                               ==> Syntax error at position 0
            A eq 1 or or B eq 2              ==> Syntax error at position 10
            not                              ==> Syntax error at position 3
            A eq 1 and not                   ==> Syntax error at position 14
            eq 1                             ==> Syntax error at position 0
            A eq eq 1                        ==> Syntax error at position 5
            A eq 1 eq 2                      ==> Syntax error at position 7
            # --- trailing garbage ---
            A eq 1 B                         ==> Syntax error at position 7
            A eq 1 'x'                       ==> Syntax error at position 7
            A 1                              ==> Syntax error at position 2
            Name eq 'a'b                     ==> Syntax error at position 11
            A eq 1 ()                        ==> Syntax error at position 7
            # --- keywords are lower case ---
            A eq 1 AND B eq 2                ==> Syntax error at position 7
            A eq 1 Or B eq 2                 ==> Syntax error at position 7
            A EQ 1                           ==> Syntax error at position 2
            NOT A eq 1                       ==> Syntax error at position 4
            # --- malformed tokens ---
            A.B eq 1                         ==> Syntax error at position 0
            A-B eq 1                         ==> Syntax error at position 0
            A eq 1 && B eq 2                 ==> Syntax error at position 7
            Age>5                            ==> Syntax error at position 0
            Age eq 1,                        ==> Syntax error at position 8
            "Name eq ""x""\"                  ==> Syntax error at position 8
            A eq null                        ==> Syntax error at position 5
            # --- parentheses where an operand must be ---
            (A eq 1) eq true                 ==> Syntax error at position 9
            A eq (1)                         ==> Syntax error at position 5
            # --- numbers ---
            A eq 2147483648                  ==> Syntax error at position 5
            A eq -2147483649                 ==> Syntax error at position 5
            A eq 99999999999999999999        ==> Syntax error at position 5
            A eq 9223372036854775808L        ==> Syntax error at position 5
            A eq -9223372036854775809L       ==> Syntax error at position 5
            A eq 1.5L                        ==> Syntax error at position 5
            123.0L eq '123.0'                ==> Syntax error at position 0
            A eq 1.                          ==> Syntax error at position 5
            A eq 1.e5                        ==> Syntax error at position 5
            A eq 1e                          ==> Syntax error at position 5
            A eq 1e+                         ==> Syntax error at position 5
            A eq 1x                          ==> Syntax error at position 5
            A eq 1LL                         ==> Syntax error at position 5
            A eq 1e400                       ==> Syntax error at position 5
            A eq -1e400                      ==> Syntax error at position 5
            A eq 1.5f                        ==> Syntax error at position 5
            A eq 1.5m                        ==> Syntax error at position 5
            A eq .5                          ==> Syntax error at position 5
            A eq +5                          ==> Syntax error at position 5
            A eq - 5                         ==> Syntax error at position 5
            A eq --5                         ==> Syntax error at position 5
            A eq 0x1F                        ==> Syntax error at position 5
            # --- typed constants ---
            T eq datetime'2008-13-01T00:00:00Z'   ==> Syntax error at position 5
            T eq datetime'yesterday'              ==> Syntax error at position 5
            T eq datetime''                       ==> Syntax error at position 5
            T eq datetime'1600-12-31T23:59:59Z'   ==> Syntax error at position 5
            T eq datetime'9999-12-31T23:59:59.99999996Z'  ==> Syntax error at position 5
            T eq DateTime'2008-07-10'             ==> Syntax error at position 5
            T eq datetime'2008-07-10T00:00:00.\u0661Z'  ==> Syntax error at position 5
            G eq guid'not-a-guid'                 ==> Syntax error at position 5
            G eq guid'c9da6455213d42c99a793e9149a57833'      ==> Syntax error at position 5
            G eq guid'c9da6455-213d-42c9-9a79-3e9149a5783'   ==> Syntax error at position 5
            G eq guid'{c9da6455-213d-42c9-9a79-3e9149a57833}' ==> Syntax error at position 5
            G eq GUID'c9da6455-213d-42c9-9a79-3e9149a57833'  ==> Syntax error at position 5
            B eq X'ABC'                           ==> Syntax error at position 5
            B eq X'GG'                            ==> Syntax error at position 5
            B eq X'AB CD'                         ==> Syntax error at position 5
            B eq x'AB'                            ==> Syntax error at position 5
            B eq Binary'AB'                       ==> Syntax error at position 5
            # --- function calls ---
            startswith(RowKey 'a')           ==> Syntax error at position 18
            startswith(RowKey,'a'            ==> Syntax error at position 21
            startswith(RowKey)               ==> Syntax error at position 17
            startswith(RowKey,'a','b')       ==> Syntax error at position 21
            startswith()                     ==> Syntax error at position 11
            startswith(,'a')                 ==> Syntax error at position 11
            StartsWith(RowKey,'a')           ==> Syntax error at position 10
            Name(1)                          ==> Syntax error at position 4
            startswith(RowKey,null)          ==> Syntax error at position 18
            # --- type errors: startswith ---
            startswith(Timestamp,'2026')     ==> Type error at position 11
            startswith('abc',RowKey)         ==> Type error at position 11
            startswith('abc','a')            ==> Type error at position 11
            startswith(RowKey,Name)          ==> Type error at position 18
            startswith(RowKey,1)             ==> Type error at position 18
            startswith(Age,30L)              ==> Type error at position 15
            startswith(D,datetime'2026-01-01')  ==> Type error at position 13
            startswith(RowKey,'a') eq 1      ==> Type error at position 23
            startswith(RowKey,'a') gt true   ==> Type error at position 23
            startswith(RowKey,'a') eq Name   ==> Type error at position 23
            startswith(RowKey,'a') eq 'a'    ==> Type error at position 23
            # --- type errors: comparisons ---
            A eq B                           ==> Type error at position 2
            PartitionKey eq RowKey           ==> Type error at position 13
            A eq Null                        ==> Type error at position 2
            A eq NaN                         ==> Type error at position 2
            1 eq 1L                          ==> Type error at position 2
            '1' eq 1                         ==> Type error at position 4
            123.0 eq '123.0'                 ==> Type error at position 6
            true eq 1                        ==> Type error at position 5
            datetime'2008-07-10' eq '2008-07-10'  ==> Type error at position 21
            X'01' lt 1                       ==> Type error at position 6
            # --- type errors: operands of and / or / not ---
            PartitionKey                     ==> Type error at position 0
            RowKey and A eq 1                ==> Type error at position 0
            not Timestamp                    ==> Type error at position 4
            'abc'                            ==> Type error at position 0
            42                               ==> Type error at position 0
            A eq 1 and 'x'                   ==> Type error at position 11
            not 1.5                          ==> Type error at position 4
            A eq 1 or 2L                     ==> Type error at position 10
            (datetime'2008-07-10')           ==> Type error at position 1
            """)
    void rejectsEachMalformedOrIllTypedFilterNamingWhere(String filter, String messageStart) {
        assertThatThrownBy(() -> Filter.parse(filter))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT))
                .hasMessageStartingWith(messageStart + " of $filter: ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"endswith(RowKey,'a')", "substringof('a',Name)", "contains(Name,'a')",
            "tolower(Name) eq 'a'", "PartitionKey eq 'p' and length(Name) gt 3", "not endswith(Name,'x')",
            "year(Timestamp) eq 2026", "startswith(tolower(Name),'a')"})
    void answersTheOtherFunctionsNotImplementedAsTheTableServiceDoes(String filter) {
        assertThatThrownBy(() -> Filter.parse(filter))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_IMPLEMENTED))
                .hasMessage("The requested operation is not implemented on the specified resource.");
    }

    @Test
    void countsAStartsWithAsAComparison() {
        String text = comparisons(Limits.MAX_FILTER_COMPARISONS) + " and startswith(Name,'a')";
        assertThatThrownBy(() -> Filter.parse(text)).hasMessageStartingWith("Limit exceeded at position "
                + text.indexOf("startswith") + " ");
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "   ", "\t", "\r\n \t"})
    void readsAnAbsentOrBlankFilterAsMatchingEverything(String text) {
        Filter filter = Filter.parse(text);
        assertThat(filter.print()).isEqualTo("true");
        assertThat(filter.keyRange()).isEqualTo(KeyRange.ALL);
    }

    @Test
    void acceptsTabsAndLineBreaksBetweenTokens() {
        assertThat(Filter.parse("\tA eq 1\r\nand\n(B\teq 'x y')\t").print())
                .isEqualTo("(and (eq A 1) (eq B 'x y'))");
    }

    @Test
    void keepsWhitespaceInsideStringConstants() {
        assertThat(Filter.parse("A eq '\ta\n'").print()).isEqualTo("(eq A '\ta\n')");
    }

    @Test
    void hintsThatOperatorsAreLowerCase() {
        assertThatThrownBy(() -> Filter.parse("A eq 1 AND B eq 2")).hasMessageContaining("lower case");
    }

    @Test
    void explainsThatInt64ConstantsNeedAnL() {
        assertThatThrownBy(() -> Filter.parse("A eq 5454161346626")).hasMessageContaining("'5454161346626L'");
    }

    @Test
    void acceptsFifteenComparisons() {
        assertThat(Filter.parse(comparisons(Limits.MAX_FILTER_COMPARISONS)).print()).startsWith("(and (eq P0 0)");
    }

    @Test
    void rejectsASixteenthComparisonAtItsPosition() {
        String text = comparisons(Limits.MAX_FILTER_COMPARISONS + 1);
        int sixteenth = text.indexOf("P15 eq") + 4;
        assertThatThrownBy(() -> Filter.parse(text))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT))
                .hasMessageStartingWith("Limit exceeded at position " + sixteenth + " of $filter: ");
    }

    @Test
    void countsAPropertyStandingAloneAsAComparison() {
        String text = comparisons(Limits.MAX_FILTER_COMPARISONS) + " and IsActive";
        assertThatThrownBy(() -> Filter.parse(text)).hasMessageStartingWith("Limit exceeded at position "
                + text.indexOf("IsActive") + " ");
    }

    @Test
    void doesNotCountBooleanConstants() {
        String text = comparisons(Limits.MAX_FILTER_COMPARISONS) + " and true or false";
        assertThat(Filter.parse(text).print()).endsWith("true) false)");
    }

    @Test
    void acceptsNestingUpToTheCap() {
        String text = "(".repeat(Filter.MAX_NESTING) + "A eq 1" + ")".repeat(Filter.MAX_NESTING);
        assertThat(Filter.parse(text).print()).isEqualTo("(eq A 1)");
        String nots = "not ".repeat(Filter.MAX_NESTING) + "A";
        assertThat(Filter.parse(nots).print()).startsWith("(not (not ");
    }

    @Test
    void rejectsNestingBeyondTheCapWithoutOverflowingTheStack() {
        String parens = "(".repeat(100_000) + "A eq 1" + ")".repeat(100_000);
        assertThatThrownBy(() -> Filter.parse(parens.substring(0, 60_000)))
                .hasMessageStartingWith("Limit exceeded at position " + Filter.MAX_NESTING + " of $filter: ");
        String nots = "not ".repeat(10_000) + "A";
        assertThatThrownBy(() -> Filter.parse(nots))
                .hasMessageStartingWith("Limit exceeded at position " + 4 * Filter.MAX_NESTING + " of $filter: ");
        String mixed = "not (".repeat(5_000) + "A" + ")".repeat(5_000);
        assertThatThrownBy(() -> Filter.parse(mixed)).hasMessageStartingWith("Limit exceeded at position ");
    }

    @Test
    void rejectsOverlongInput() {
        String text = "A eq '" + "x".repeat(Filter.MAX_LENGTH) + "'";
        assertThatThrownBy(() -> Filter.parse(text))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT))
                .hasMessageStartingWith("Limit exceeded at position " + Filter.MAX_LENGTH + " of $filter: ");
    }

    @Test
    void handlesALongFlatChainOfConditionsWithoutDeepRecursion() {
        String text = "true" + " and true".repeat(6_000);
        Filter filter = Filter.parse(text);
        assertThat(filter.test(name -> null)).isTrue();
        assertThat(filter.print()).hasSize("(and)".length() + 6_001 * " true".length());
        assertThat(filter.keyRange()).isEqualTo(KeyRange.ALL);
    }

    @Test
    void distinguishesSyntaxFromTypeErrorsByMessage() {
        Throwable syntax = catchThrowable(() -> Filter.parse("A eq"));
        Throwable type = catchThrowable(() -> Filter.parse("A eq B"));
        assertThat(syntax.getMessage()).startsWith(FilterError.SYNTAX);
        assertThat(type.getMessage()).startsWith(FilterError.TYPE);
        assertThat(((TableServiceException) syntax).errorCode()).isEqualTo(ErrorCode.INVALID_INPUT);
        assertThat(((TableServiceException) type).errorCode()).isEqualTo(ErrorCode.INVALID_INPUT);
    }

    @Test
    void failsOnlyWithInvalidInputOnRandomText() {
        String[] pieces = {"A", "PartitionKey", "RowKey", "Timestamp", "eq", "ne", "lt", "ge", "and", "or", "not",
            "(", ")", "'", "''", "'x'", "1", "-", "1L", "1.5", "1e", "e", "d", "L", "X'", "X'0A'", "binary'",
            "datetime'", "datetime'2008-07-10'", "guid'", "true", "false", "null", " ", " ", "\t", "\"", ".",
            ",", "AND", "Eq", "é", "\u0000", "\uD800", "0x", "2147483648", "9223372036854775808L"};
        Random random = new Random(20240501);
        int parsed = 0;
        for (int i = 0; i < 30_000; i++) {
            StringBuilder text = new StringBuilder();
            int n = 1 + random.nextInt(12);
            for (int k = 0; k < n; k++) {
                text.append(pieces[random.nextInt(pieces.length)]);
                if (random.nextInt(3) > 0) {
                    text.append(' ');
                }
            }
            try {
                Filter filter = Filter.parse(text.toString());
                filter.test(name -> null);
                filter.keyRange();
                filter.print();
                parsed++;
            } catch (TableServiceException e) {
                assertThat(e.errorCode()).as(text.toString()).isEqualTo(ErrorCode.INVALID_INPUT);
                assertThat(e.getMessage()).as(text.toString())
                        .matches("(Syntax error|Type error|Limit exceeded) at position \\d+ of \\$filter: .+");
            }
        }
        assertThat(parsed).as("some random texts are valid filters").isPositive();
    }

    /** {@code P0 eq 0 and P1 eq 1 and ...}, {@code n} comparisons. */
    private static String comparisons(int n) {
        StringJoiner joiner = new StringJoiner(" and ");
        for (int i = 0; i < n; i++) {
            joiner.add("P" + i + " eq " + i);
        }
        return joiner.toString();
    }
}
