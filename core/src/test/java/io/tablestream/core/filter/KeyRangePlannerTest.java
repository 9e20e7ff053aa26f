package io.tablestream.core.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.filter.KeyRange.Kind;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.Entity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KeyRangePlannerTest {

    static Stream<Arguments> plans() {
        return Stream.of(
                // each kind
                plan("PartitionKey eq 'a' and RowKey eq 'b'", KeyRange.point("a", "b")),
                plan("RowKey eq 'b' and PartitionKey eq 'a'", KeyRange.point("a", "b")),
                plan("PartitionKey eq 'a' and RowKey ge 'x' and RowKey lt 'y'",
                        KeyRange.partition("a", new StringRange("x", true, "y", false))),
                plan("PartitionKey eq 'a'", KeyRange.partition("a", StringRange.ALL)),
                plan("PartitionKey ge 'a' and PartitionKey lt 'c'",
                        new KeyRange(new StringRange("a", true, "c", false), StringRange.ALL)),
                plan("PartitionKey gt 'a'", new KeyRange(StringRange.greaterThan("a"), StringRange.ALL)),
                plan("Age gt 3", KeyRange.ALL),
                plan("RowKey eq 'b'", KeyRange.ALL),
                plan("PartitionKey eq 'a' and Age gt 3 and RowKey le 'm'",
                        KeyRange.partition("a", StringRange.atMost("m"))),
                // contradictions
                plan("PartitionKey eq 'a' and PartitionKey eq 'b'", KeyRange.NONE),
                plan("PartitionKey gt 'b' and PartitionKey lt 'a'", KeyRange.NONE),
                plan("PartitionKey gt 'a' and PartitionKey lt 'a'", KeyRange.NONE),
                plan("PartitionKey eq 'a' and RowKey eq 'x' and RowKey eq 'y'", KeyRange.NONE),
                plan("PartitionKey ge 'a' and RowKey eq 'x' and RowKey eq 'y'", KeyRange.NONE),
                // constants on the left
                plan("'a' eq PartitionKey and 'x' le RowKey", KeyRange.partition("a", StringRange.atLeast("x"))),
                plan("'c' gt PartitionKey", new KeyRange(StringRange.lessThan("c"), StringRange.ALL)),
                plan("'c' le PartitionKey", new KeyRange(StringRange.atLeast("c"), StringRange.ALL)),
                // or spans both sides
                plan("PartitionKey eq 'a' or PartitionKey eq 'c'",
                        new KeyRange(new StringRange("a", true, "c", true), StringRange.ALL)),
                plan("(PartitionKey eq 'a' and RowKey eq 'x') or (PartitionKey eq 'a' and RowKey eq 'y')",
                        KeyRange.partition("a", new StringRange("x", true, "y", true))),
                plan("(PartitionKey eq 'a' and RowKey eq 'x') or PartitionKey eq 'b'",
                        new KeyRange(new StringRange("a", true, "b", true), StringRange.ALL)),
                plan("PartitionKey eq 'a' and (RowKey lt 'c' or RowKey gt 'x')", KeyRange.partition("a", StringRange.ALL)),
                plan("PartitionKey eq 'a' and (RowKey eq 'c' or RowKey eq 'e')",
                        KeyRange.partition("a", new StringRange("c", true, "e", true))),
                plan("PartitionKey eq 'a' or Age gt 3", KeyRange.ALL),
                plan("PartitionKey lt 'b' or PartitionKey gt 'x'", KeyRange.ALL),
                // ne and not
                plan("PartitionKey ne 'a'", KeyRange.ALL),
                plan("PartitionKey eq 'a' and RowKey ne 'x'", KeyRange.partition("a", StringRange.ALL)),
                plan("not (PartitionKey lt 'b')", new KeyRange(StringRange.atLeast("b"), StringRange.ALL)),
                plan("not (PartitionKey ne 'a')", KeyRange.partition("a", StringRange.ALL)),
                plan("not (PartitionKey eq 'a' or PartitionKey eq 'b')", KeyRange.ALL),
                plan("not (PartitionKey lt 'a' or PartitionKey gt 'c')",
                        new KeyRange(new StringRange("a", true, "c", true), StringRange.ALL)),
                plan("not (PartitionKey ne 'a' or RowKey le 'm')", KeyRange.partition("a", StringRange.greaterThan("m"))),
                plan("not not PartitionKey eq 'a'", KeyRange.partition("a", StringRange.ALL)),
                plan("PartitionKey eq 'a' and not (Age gt 3)", KeyRange.partition("a", StringRange.ALL)),
                plan("not (PartitionKey eq 'a' and Age gt 3)", KeyRange.ALL),
                // keys against other types never match
                plan("PartitionKey eq 1", KeyRange.NONE),
                plan("PartitionKey eq 'a' and RowKey eq 5L", KeyRange.NONE),
                plan("not (PartitionKey eq 1)", KeyRange.ALL),
                plan("PartitionKey eq 'a' or PartitionKey eq 1", KeyRange.partition("a", StringRange.ALL)),
                plan("PartitionKey ne true", KeyRange.NONE),
                // constants
                plan("true", KeyRange.ALL),
                plan("false", KeyRange.NONE),
                plan("not false", KeyRange.ALL),
                plan("PartitionKey eq 'a' and false", KeyRange.NONE),
                plan("PartitionKey eq 'a' or false", KeyRange.partition("a", StringRange.ALL)),
                plan("1 eq 2 or PartitionKey eq 'a'", KeyRange.partition("a", StringRange.ALL)),
                plan("'a' lt 'b' and PartitionKey eq 'a'", KeyRange.partition("a", StringRange.ALL)),
                plan("IsActive and PartitionKey eq 'a'", KeyRange.partition("a", StringRange.ALL)),
                // startswith: the range of the prefix
                plan("startswith(PartitionKey,'ab')", new KeyRange(new StringRange("ab", true, "ac", false), StringRange.ALL)),
                plan("PartitionKey eq 'p' and startswith(RowKey,'2026-')",
                        KeyRange.partition("p", new StringRange("2026-", true, "2026.", false))),
                plan("startswith(RowKey,'a') and PartitionKey eq 'p'",
                        KeyRange.partition("p", new StringRange("a", true, "b", false))),
                plan("startswith(RowKey,'a')", KeyRange.ALL),
                plan("startswith(PartitionKey,'a\uFFFF')", new KeyRange(new StringRange("a\uFFFF", true, "b", false),
                        StringRange.ALL)),
                plan("startswith(PartitionKey,'\uFFFF\uFFFF')", new KeyRange(StringRange.atLeast("\uFFFF\uFFFF"),
                        StringRange.ALL)),
                plan("startswith(PartitionKey,'')", KeyRange.ALL),
                plan("not startswith(PartitionKey,'')", KeyRange.NONE),
                plan("not startswith(PartitionKey,'a')", KeyRange.ALL),
                plan("startswith(PartitionKey,'a') eq false", KeyRange.ALL),
                plan("startswith(PartitionKey,'a') eq true", new KeyRange(new StringRange("a", true, "b", false),
                        StringRange.ALL)),
                plan("startswith(PartitionKey,'ab') and PartitionKey ge 'abc'",
                        new KeyRange(new StringRange("abc", true, "ac", false), StringRange.ALL)),
                plan("startswith(PartitionKey,'ab') and PartitionKey eq 'abz'", KeyRange.partition("abz", StringRange.ALL)),
                plan("startswith(PartitionKey,'ab') and PartitionKey eq 'b'", KeyRange.NONE),
                plan("startswith(PartitionKey,'ab') and startswith(PartitionKey,'b')", KeyRange.NONE),
                plan("startswith(PartitionKey,'ab') and startswith(PartitionKey,'abc')",
                        new KeyRange(new StringRange("abc", true, "abd", false), StringRange.ALL)),
                plan("startswith(PartitionKey,'a') or startswith(PartitionKey,'c')",
                        new KeyRange(new StringRange("a", true, "d", false), StringRange.ALL)),
                plan("startswith(PartitionKey,'a') or Age gt 3", KeyRange.ALL),
                plan("PartitionKey eq 'p' and (startswith(RowKey,'a') or startswith(RowKey,'x'))",
                        KeyRange.partition("p", new StringRange("a", true, "y", false))),
                plan("startswith(Name,'a') and PartitionKey eq 'p'", KeyRange.partition("p", StringRange.ALL)));
    }

    private static Arguments plan(String filter, KeyRange expected) {
        return Arguments.of(filter, expected);
    }

    @ParameterizedTest(name = "{0}  ==>  {1}")
    @MethodSource("plans")
    void plansEachFilterAsTheTightestRangeItProves(String filter, KeyRange expected) {
        KeyRange actual = Filter.parse(filter).keyRange();
        assertThat(actual.kind()).isEqualTo(expected.kind());
        if (expected.kind() != Kind.EMPTY) {
            assertThat(actual).isEqualTo(expected);
        }
    }

    @Test
    void namesEachKindOfPlan() {
        assertThat(Filter.parse("PartitionKey eq 'a' and RowKey eq 'b'").keyRange().kind()).isEqualTo(Kind.POINT);
        assertThat(Filter.parse("PartitionKey eq 'a' and RowKey ge 'x'").keyRange().kind()).isEqualTo(Kind.PARTITION);
        assertThat(Filter.parse("PartitionKey eq 'a'").keyRange().kind()).isEqualTo(Kind.PARTITION);
        assertThat(Filter.parse("PartitionKey ge 'a' and PartitionKey lt 'c'").keyRange().kind())
                .isEqualTo(Kind.PARTITION_RANGE);
        assertThat(Filter.parse("Name eq 'a'").keyRange().kind()).isEqualTo(Kind.TABLE_SCAN);
        assertThat(Filter.parse("PartitionKey eq 'a' and PartitionKey eq 'b'").keyRange().kind()).isEqualTo(Kind.EMPTY);
    }

    @Test
    void plansTableNamesForQueryTables() {
        assertThat(Filter.parse("TableName ge 'a' and TableName lt 'b'").rangeOf("TableName"))
                .isEqualTo(new StringRange("a", true, "b", false));
        assertThat(Filter.parse("TableName eq 'x' or TableName eq 'y'").rangeOf("TableName"))
                .isEqualTo(new StringRange("x", true, "y", true));
        assertThat(Filter.parse("'m' gt TableName").rangeOf("TableName")).isEqualTo(StringRange.lessThan("m"));
        assertThat(Filter.parse("not (TableName lt 'm')").rangeOf("TableName")).isEqualTo(StringRange.atLeast("m"));
        assertThat(Filter.parse("Age gt 3").rangeOf("TableName")).isEqualTo(StringRange.ALL);
        assertThat(Filter.parse("").rangeOf("TableName")).isEqualTo(StringRange.ALL);
        assertThat(Filter.parse("TableName eq 'a' and TableName eq 'b'").rangeOf("TableName").isEmpty()).isTrue();
        assertThat(Filter.parse("TableName eq 1").rangeOf("TableName").isEmpty()).isTrue();
        assertThat(Filter.parse("TableName").rangeOf("TableName").isEmpty()).isTrue();
        assertThat(Filter.parse("not TableName").rangeOf("TableName")).isEqualTo(StringRange.ALL);
        assertThat(Filter.parse("startswith(TableName,'Ord')").rangeOf("TableName"))
                .isEqualTo(new StringRange("Ord", true, "Ore", false));
    }

    @Test
    void rangesOfAPrefixHoldExactlyTheStringsThatBeginWithIt() {
        String[] units = {"a", "b", "\uFFFF", "\uD800", "\uDFFF", "\u00e9", "z"};
        Random random = new Random(11);
        for (int round = 0; round < 5_000; round++) {
            String prefix = randomString(random, units, 3);
            String value = random.nextInt(3) == 0 ? prefix + randomString(random, units, 2) : randomString(random, units, 4);
            assertThat(StringRange.startingWith(prefix).contains(value)).as("'%s' starts with '%s'", value, prefix)
                    .isEqualTo(value.startsWith(prefix));
        }
    }

    private static String randomString(Random random, String[] units, int maxLength) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(maxLength + 1); i > 0; i--) {
            s.append(units[random.nextInt(units.length)]);
        }
        return s.toString();
    }

    @Test
    void plansEachKeyAloneAsTheKeyRangeDoes() {
        Filter filter = Filter.parse("PartitionKey eq 'a' and RowKey gt 'k' or PartitionKey eq 'a' and RowKey lt 'c'");
        assertThat(filter.rangeOf("PartitionKey")).isEqualTo(StringRange.exactly("a"));
        assertThat(filter.rangeOf("RowKey")).isEqualTo(StringRange.ALL);
        assertThat(filter.keyRange()).isEqualTo(KeyRange.partition("a", StringRange.ALL));
    }

    /** Random small filters over the keys never exclude a key they match. */
    @Test
    void alwaysPlansASupersetOfTheMatches() {
        String[] keys = {"", "a", "aa", "ab", "b", "ba", "b\u00e9", "c", "\uFFFF"};
        List<Entity> entities = new ArrayList<>();
        for (String pk : keys) {
            for (String rk : keys) {
                entities.add(Entity.of(pk, rk, Map.of("Age", EdmInt32.of(pk.length() + rk.length()))));
            }
        }
        Random random = new Random(7);
        int narrowed = 0;
        int nonEmptyMatches = 0;
        for (int i = 0; i < 4_000; i++) {
            String text = randomCondition(random, keys, 3);
            Filter filter = Filter.parse(text);
            KeyRange range = filter.keyRange();
            StringRange partitions = filter.rangeOf("PartitionKey");
            StringRange rows = filter.rangeOf("RowKey");
            boolean anyMatch = false;
            for (Entity e : entities) {
                if (filter.test(e)) {
                    anyMatch = true;
                    assertThat(range.contains(e.partitionKey(), e.rowKey()))
                            .as("%s plans %s but matches (%s, %s)", text, range, e.partitionKey(), e.rowKey()).isTrue();
                    assertThat(partitions.contains(e.partitionKey())).as(text).isTrue();
                    assertThat(rows.contains(e.rowKey())).as(text).isTrue();
                }
            }
            if (range.kind() != Kind.TABLE_SCAN) {
                narrowed++;
            }
            if (anyMatch) {
                nonEmptyMatches++;
            }
        }
        assertThat(narrowed).as("the generator exercises narrowing plans").isGreaterThan(1_000);
        assertThat(nonEmptyMatches).as("the generator produces matching filters").isGreaterThan(1_000);
    }

    private static String randomCondition(Random random, String[] keys, int depth) {
        int choice = random.nextInt(depth <= 0 ? 4 : 8);
        switch (choice) {
            case 0:
            case 1:
            case 2:
                return randomComparison(random, keys);
            case 3:
                return random.nextInt(4) == 0 ? (random.nextBoolean() ? "true" : "false") : "Age gt " + random.nextInt(4);
            case 4:
                return "not (" + randomCondition(random, keys, depth - 1) + ")";
            case 5:
            case 6:
                return "(" + randomCondition(random, keys, depth - 1) + ") and (" + randomCondition(random, keys, depth - 1) + ")";
            default:
                return "(" + randomCondition(random, keys, depth - 1) + ") or (" + randomCondition(random, keys, depth - 1) + ")";
        }
    }

    private static String randomComparison(Random random, String[] keys) {
        String property = random.nextBoolean() ? "PartitionKey" : "RowKey";
        if (random.nextInt(5) == 0) {
            return "startswith(" + property + ",'" + keys[random.nextInt(keys.length)] + "')";
        }
        String[] operators = {"eq", "ne", "gt", "ge", "lt", "le"};
        String operator = operators[random.nextInt(operators.length)];
        String constant = random.nextInt(10) == 0 ? "1" : "'" + keys[random.nextInt(keys.length)] + "'";
        return random.nextBoolean()
                ? property + " " + operator + " " + constant
                : constant + " " + operator + " " + property;
    }
}
