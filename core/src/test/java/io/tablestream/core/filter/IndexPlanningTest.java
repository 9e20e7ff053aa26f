package io.tablestream.core.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmType;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.IndexKeys;
import io.tablestream.core.storekey.KeyCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The index planner picks what an index can answer, and the index key ranges hold exactly the
 * values the filter's own evaluator accepts (a superset only for NaN, which the filter rejects).
 */
class IndexPlanningTest {
    private static final Set<String> INDEXED = Set.of("Email", "Age", "Active");

    private static String plan(String filter) {
        Optional<IndexCondition> c = Filter.parse(filter).indexCondition(INDEXED);
        if (c.isEmpty()) {
            return "scan";
        }
        IndexCondition i = c.get();
        return i.property() + " " + (i.lower() == null ? "(" : (i.lowerInclusive() ? "[" : "(") + EdmLiteral.print(i.lower()))
                + ".." + (i.upper() == null ? ")" : EdmLiteral.print(i.upper()) + (i.upperInclusive() ? "]" : ")"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Email eq 'a'                                   | Email ['a'..'a']",
            "'a' eq Email                                   | Email ['a'..'a']",
            "Age gt 5 and Email eq 'a'                      | Email ['a'..'a']",
            "Age ge 18 and Age lt 65                        | Age [18..65)",
            "Age ge 18 and Age gt 20 and Age le 30 and Age lt 30 | Age (20..30)",
            "Age gt 5 and PartitionKey eq 'p'               | Age (5..)",
            "Active                                         | Active [true..true]",
            "Email ne 'a'                                   | scan",
            "Email eq 'a' or Age eq 1                       | scan",
            "not (Email eq 'a')                             | scan",
            "Other eq 'a'                                   | scan",
            "PartitionKey eq 'a'                            | scan",
            "Email eq X'AB'                                 | scan",
            "startswith(Email,'ana')                        | Email ['ana'..'anb')",
            "startswith(Email,'')                           | Email [''..)",
            "Age gt 5 and startswith(Email,'a')             | Age (5..)",
            "startswith(Email,'a') and Email eq 'ab'        | Email ['ab'..'ab']",
            "not startswith(Email,'a')                      | scan",
            "startswith(Other,'a')                          | scan",
            "startswith(RowKey,'a')                         | scan",
            "                                               | scan",
    })
    void choosesTheConditionAnIndexAnswers(String filter, String expected) {
        assertThat(plan(filter)).isEqualTo(expected);
    }

    private static EdmValue randomValue(EdmType type, Random random) {
        return switch (type) {
            case STRING -> {
                StringBuilder s = new StringBuilder();
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    s.append("\u0000\u0001ab\u00e9\uffff\ud800".charAt(random.nextInt(7)));
                }
                yield EdmString.of(s.toString());
            }
            case INT32 -> EdmInt32.of(random.nextBoolean() ? random.nextInt(7) - 3 : random.nextInt());
            case INT64 -> EdmInt64.of(random.nextBoolean() ? random.nextInt(7) - 3 : random.nextLong());
            case DOUBLE -> EdmDouble.of(switch (random.nextInt(8)) {
                case 0 -> -0.0;
                case 1 -> 0.0;
                case 2 -> Double.NEGATIVE_INFINITY;
                case 3 -> Double.POSITIVE_INFINITY;
                case 4 -> Double.NaN;
                default -> (random.nextInt(9) - 4) * 0.5;
            });
            case BOOLEAN -> EdmBoolean.of(random.nextBoolean());
            case DATE_TIME -> EdmDateTime.ofEpochTicks(random.nextInt(2_000_001) - 1_000_000L);
            case GUID -> EdmGuid.of(new UUID(random.nextInt(5) - 2L, random.nextInt(5) - 2L));
            case BINARY -> throw new IllegalArgumentException();
        };
    }

    @Test
    void indexRangesHoldExactlyTheValuesTheFilterAccepts() {
        Random random = new Random(7);
        EdmType[] types = {EdmType.STRING, EdmType.INT32, EdmType.INT64, EdmType.DOUBLE, EdmType.BOOLEAN,
                EdmType.DATE_TIME, EdmType.GUID};
        String[] ops = {"eq", "gt", "ge", "lt", "le"};
        EntityKey key = EntityKey.of(1, "p", "r");
        for (int round = 0; round < 3_000; round++) {
            EdmType type = types[random.nextInt(types.length)];
            EdmValue constant = randomValue(type, random);
            if (constant instanceof EdmDouble d && !Double.isFinite(d.value()) || constant instanceof EdmString s
                    && s.value().indexOf('\u0000') >= 0) {
                continue; // no literal for NaN or infinities; a filter literal holds no U+0000
            }
            String text = type == EdmType.STRING && random.nextInt(4) == 0
                    ? "startswith(Age," + EdmLiteral.print(constant) + ")"
                    : "Age " + ops[random.nextInt(ops.length)] + " " + EdmLiteral.print(constant);
            Filter filter = Filter.parse(text);
            IndexCondition condition = filter.indexCondition(INDEXED).orElseThrow();
            ByteRange range = IndexKeys.range(1, 9, condition);
            for (int v = 0; v < 20; v++) {
                EdmValue value = randomValue(type, random);
                boolean matches = filter.test(Entity.of("p", "r", Map.of("Age", value)));
                byte[] entry = IndexKeys.entry(9, value, key);
                boolean inRange = range.contains(entry);
                boolean nan = value instanceof EdmDouble d && Double.isNaN(d.value());
                if (!nan) {
                    assertThat(inRange).as("%s with Age = %s", text, value).isEqualTo(matches);
                } else {
                    assertThat(matches).isFalse();
                }
                assertThat(IndexKeys.entityOf(entry)).isEqualTo(key);
                if (condition.isPoint() && matches) {
                    assertThat(IndexKeys.range(1, 9, constant, KeyCodec.table(1)).contains(entry)).isTrue();
                }
            }
            // another type never falls in the range
            EdmValue other = type == EdmType.STRING ? EdmInt32.of(1) : EdmString.of("x");
            assertThat(range.contains(IndexKeys.entry(9, other, key))).isFalse();
        }
    }

    @Test
    void entriesOfOneValueAreInKeyOrderAndBoundedByTheEntityRange() {
        EdmValue v = EdmString.of("same");
        List<byte[]> entries = new ArrayList<>();
        for (String pk : List.of("a", "b", "c")) {
            entries.add(IndexKeys.entry(3, v, EntityKey.of(1, pk, "r")));
        }
        for (int i = 1; i < entries.size(); i++) {
            assertThat(java.util.Arrays.compareUnsigned(entries.get(i - 1), entries.get(i))).isNegative();
        }
        ByteRange onlyB = IndexKeys.range(1, 3, v, KeyCodec.partition(1, "b"));
        assertThat(entries).filteredOn(onlyB::contains).hasSize(1);
        assertThat(IndexKeys.index(1, 3).contains(entries.get(0))).isTrue();
        assertThat(IndexKeys.index(1, 4).contains(entries.get(0))).isFalse();
    }

}
