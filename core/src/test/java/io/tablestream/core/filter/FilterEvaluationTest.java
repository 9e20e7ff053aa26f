package io.tablestream.core.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.rules.PropertyNames;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FilterEvaluationTest {
    private static final EdmDateTime WRITTEN = EdmDateTime.parse("2024-05-01T12:00:00.1234567Z").orElseThrow();

    /** An entity with a property of every type, and some extremes. */
    private static final Entity ENTITY = entity();

    private static Entity entity() {
        Map<String, EdmValue> p = new LinkedHashMap<>();
        p.put("Name", EdmString.of("Ann"));
        p.put("Empty", EdmString.of(""));
        p.put("Age", EdmInt32.of(30));
        p.put("Big", EdmInt64.of(30L));
        p.put("Score", EdmDouble.of(2.5));
        p.put("Whole", EdmDouble.of(2.0));
        p.put("NotANumber", EdmDouble.of(Double.NaN));
        p.put("NegativeZero", EdmDouble.of(-0.0));
        p.put("Infinite", EdmDouble.of(Double.POSITIVE_INFINITY));
        p.put("Active", EdmBoolean.TRUE);
        p.put("Off", EdmBoolean.FALSE);
        p.put("Born", EdmDateTime.parse("1990-02-03T04:05:06Z").orElseThrow());
        p.put("Id", EdmGuid.of(UUID.fromString("80000000-0000-0000-0000-000000000000")));
        p.put("Data", EdmBinary.of(new byte[] {0x01, (byte) 0xFF}));
        p.put("MinInt", EdmInt32.of(Integer.MIN_VALUE));
        p.put("MaxLong", EdmInt64.of(Long.MAX_VALUE));
        p.put("Number", EdmString.of("123.0"));
        return Entity.of("pk", "rk", p).withVersion(WRITTEN);
    }

    @ParameterizedTest(name = "{0}  ==>  {1}")
    @CsvSource(delimiterString = "==>", quoteCharacter = '"', textBlock = """
            # --- String: ordinal (UTF-16 code units) ---
            Name eq 'Ann'                         ==> true
            Name eq 'ann'                         ==> false
            Name ne 'ann'                         ==> true
            Name lt 'Anna'                        ==> true
            Name gt 'A'                           ==> true
            Name lt 'a'                           ==> true
            Name ge 'Ann'                         ==> true
            Name le 'Am'                          ==> false
            Empty eq ''                           ==> true
            Empty lt 'a'                          ==> true
            # --- startswith: ordinal, String values only ---
            startswith(Name,'An')                 ==> true
            startswith(Name,'Ann')                ==> true
            startswith(Name,'Anna')               ==> false
            startswith(Name,'an')                 ==> false
            startswith(Name,'')                   ==> true
            startswith(Empty,'')                  ==> true
            startswith(Empty,'a')                 ==> false
            startswith(PartitionKey,'p')          ==> true
            startswith(RowKey,'rk')               ==> true
            startswith(RowKey,'k')                ==> false
            startswith(Number,'123')              ==> true
            startswith(Age,'3')                   ==> false
            startswith(Age,'')                    ==> false
            startswith(Missing,'')                ==> false
            not startswith(Missing,'a')           ==> true
            not startswith(Name,'A')              ==> false
            startswith(Name,'A') eq false         ==> false
            startswith(Name,'B') ne true          ==> true
            startswith(Name,'A') and Age eq 30    ==> true
            # --- Int32 ---
            Age eq 30                             ==> true
            Age ne 30                             ==> false
            Age ne 31                             ==> true
            Age gt 29                             ==> true
            Age ge 30                             ==> true
            Age lt 30                             ==> false
            Age le 30                             ==> true
            Age gt -2147483648                    ==> true
            MinInt eq -2147483648                 ==> true
            MinInt lt -2147483647                 ==> true
            # --- Int64 ---
            Big eq 30L                            ==> true
            Big gt -1L                            ==> true
            MaxLong eq 9223372036854775807L       ==> true
            MaxLong gt 9223372036854775806L       ==> true
            # --- Double, IEEE 754 ---
            Score eq 2.5                          ==> true
            Score gt 2.0                          ==> true
            Score lt 2.5d                         ==> false
            Score le 2.5                          ==> true
            Whole eq 2.0                          ==> true
            Whole eq 2d                           ==> true
            NegativeZero eq 0.0                   ==> true
            NegativeZero lt 0.0                   ==> false
            Infinite gt 1.7976931348623157E308    ==> true
            NotANumber eq 0.0                     ==> false
            NotANumber ne 0.0                     ==> true
            NotANumber lt 1e308                   ==> false
            NotANumber le 1e308                   ==> false
            NotANumber gt -1e308                  ==> false
            NotANumber ge -1e308                  ==> false
            not (NotANumber gt 0.0)               ==> true
            # --- Boolean: false < true ---
            Active                                ==> true
            Off                                   ==> false
            not Off                               ==> true
            not Active                            ==> false
            Active eq true                        ==> true
            Off lt true                           ==> true
            Active gt false                       ==> true
            Active le false                       ==> false
            # --- DateTime, by ticks ---
            Born eq datetime'1990-02-03T04:05:06Z'          ==> true
            Born eq datetime'1990-02-03T05:05:06+01:00'     ==> true
            Born lt datetime'1990-02-03T04:05:06.0000001Z'  ==> true
            Born gt datetime'1601-01-01T00:00:00Z'          ==> true
            Born ge datetime'1990-02-03'                    ==> true
            # --- Guid, as its canonical text ---
            Id eq guid'80000000-0000-0000-0000-000000000000'   ==> true
            Id eq guid'80000000-0000-0000-0000-000000000001'   ==> false
            Id gt guid'7fffffff-ffff-ffff-ffff-ffffffffffff'   ==> true
            Id lt guid'ffffffff-ffff-ffff-ffff-ffffffffffff'   ==> true
            Id lt guid'80000000-0000-0000-0000-000000000001'   ==> true
            # --- Binary, unsigned lexicographic ---
            Data eq X'01FF'                       ==> true
            Data eq binary'01ff'                  ==> true
            Data gt X'01'                         ==> true
            Data lt X'02'                         ==> true
            Data gt X'017F'                       ==> true
            Data lt X'01FF00'                     ==> true
            Data gt X''                           ==> true
            # --- system properties ---
            PartitionKey eq 'pk'                  ==> true
            RowKey eq 'rk'                        ==> true
            PartitionKey lt 'pl'                  ==> true
            'pk' eq PartitionKey                  ==> true
            'a' lt RowKey                         ==> true
            'z' lt RowKey                         ==> false
            Timestamp eq datetime'2024-05-01T12:00:00.1234567Z'  ==> true
            Timestamp gt datetime'2024-05-01T12:00:00.1234566Z'  ==> true
            datetime'2024-05-01' lt Timestamp     ==> true
            # --- across types: always false, ne included ---
            Age eq 30L                            ==> false
            Age ne 30L                            ==> false
            Age eq 30.0                           ==> false
            Age eq '30'                           ==> false
            Big eq 30                             ==> false
            Score gt 2                            ==> false
            Whole eq 2                            ==> false
            Active eq 1                           ==> false
            Name eq true                          ==> false
            Number eq 123.0                       ==> false
            Number ne 123.0                       ==> false
            Born eq '1990-02-03T04:05:06Z'        ==> false
            Id eq '80000000-0000-0000-0000-000000000000'  ==> false
            Data eq '01FF'                        ==> false
            PartitionKey eq 1                     ==> false
            PartitionKey ne 1                     ==> false
            Timestamp eq '2024-05-01'             ==> false
            # --- missing properties: every comparison false ---
            Missing eq 1                          ==> false
            Missing ne 1                          ==> false
            Missing lt 'a'                        ==> false
            Missing ge ''                         ==> false
            Missing                               ==> false
            TableName eq 'pk'                     ==> false
            # --- not is plain negation ---
            not (Missing eq 1)                    ==> true
            not (Missing ne 1)                    ==> true
            not Missing                           ==> true
            not (Age eq 30L)                      ==> true
            not (PartitionKey eq 1)               ==> true
            not Name                              ==> true
            Name                                  ==> false
            not not Active                        ==> true
            # --- and / or ---
            Age eq 30 and Name eq 'Ann'           ==> true
            Age eq 30 and Name eq 'Bob'           ==> false
            Age eq 31 or Name eq 'Ann'            ==> true
            Age eq 31 or Name eq 'Bob'            ==> false
            Age eq 31 or Name eq 'Bob' or Active  ==> true
            not (Age eq 31 or Name eq 'Bob')      ==> true
            Off or Active and Age eq 30           ==> true
            (Off or Active) and Age eq 31         ==> false
            # --- constants ---
            true                                  ==> true
            false                                 ==> false
            1 eq 1                                ==> true
            'a' gt 'b'                            ==> false
            true and PartitionKey eq 'pk'         ==> true
            false or PartitionKey eq 'pk'         ==> true
            """)
    void evaluatesEachFilterAgainstTheEntity(String filter, boolean expected) {
        Filter parsed = Filter.parse(filter);
        assertThat(parsed.test(ENTITY)).isEqualTo(expected);
        assertThat(parsed.test(lookupOf(ENTITY))).as("the same answer through a property lookup").isEqualTo(expected);
    }

    @Test
    void readsATimestampOfAnEntityNotYetWrittenAsMissing() {
        Entity unwritten = Entity.of("pk", "rk", Map.of());
        assertThat(Filter.parse("Timestamp ge datetime'1601-01-01'").test(unwritten)).isFalse();
        assertThat(Filter.parse("not (Timestamp ge datetime'1601-01-01')").test(unwritten)).isTrue();
    }

    @Test
    void neverMatchesADoubleAgainstTheStringOfItsDigits() {
        Entity withString = Entity.of("pk", "rk", Map.of("V", EdmString.of("123.0")));
        Entity withDouble = Entity.of("pk", "rk", Map.of("V", EdmDouble.of(123.0)));
        Entity withLong = Entity.of("pk", "rk", Map.of("V", EdmInt64.of(123L)));
        for (String filter : new String[] {"V eq 123.0", "V eq '123.0'", "V eq 123L", "V eq 123"}) {
            Filter f = Filter.parse(filter);
            int matches = (f.test(withString) ? 1 : 0) + (f.test(withDouble) ? 1 : 0) + (f.test(withLong) ? 1 : 0);
            assertThat(matches).as(filter).isLessThanOrEqualTo(1);
        }
        assertThat(Filter.parse("V eq '123.0'").test(withDouble)).isFalse();
        assertThat(Filter.parse("V eq 123L").test(withDouble)).isFalse();
    }

    @Test
    void filtersTablesByTableNameWithoutAnEntity() {
        Filter filter = Filter.parse("TableName ge 'cust' and TableName lt 'cusu'");
        assertThat(filter.test(table("customers"))).isTrue();
        assertThat(filter.test(table("orders"))).isFalse();
        assertThat(Filter.parse("PartitionKey eq 'customers'").test(table("customers"))).isFalse();
        assertThat(Filter.parse("TableName eq 1").test(table("customers"))).isFalse();
        assertThat(Filter.parse("not (TableName eq 'orders')").test(table("customers"))).isTrue();
    }

    @Test
    void evaluatesWithoutAllocatingPerEntity() {
        Filter filter = Filter.parse("PartitionKey eq 'pk' and RowKey ge 'a' and (Age gt 29 or Name lt 'B')"
                + " and not (Score eq 1.5) and Timestamp gt datetime'2000-01-01' and Active and Data gt X'00'"
                + " and Id ne guid'00000000-0000-0000-0000-000000000000' and Big le 30L and not (Missing eq 1)");
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        boolean all = true;
        for (int i = 0; i < 20_000; i++) {
            all &= filter.test(ENTITY); // warm up: class initialization, switch maps
        }
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) {
            all &= filter.test(ENTITY);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertThat(all).isTrue();
        assertThat(allocated).as("bytes allocated by 100,000 evaluations").isLessThan(16_000);
    }

    @Test
    void matchesEverythingWhenBlank() {
        assertThat(Filter.parse("").test(ENTITY)).isTrue();
        assertThat(Filter.all().test(table("any"))).isTrue();
    }

    private static PropertyLookup table(String name) {
        EdmString value = EdmString.of(name);
        return property -> "TableName".equals(property) ? value : null;
    }

    /** The entity seen through the generic lookup, keys as Strings and Timestamp as a DateTime. */
    private static PropertyLookup lookupOf(Entity entity) {
        return name -> switch (name) {
            case PropertyNames.PARTITION_KEY -> EdmString.of(entity.partitionKey());
            case PropertyNames.ROW_KEY -> EdmString.of(entity.rowKey());
            case PropertyNames.TIMESTAMP -> entity.timestamp();
            default -> entity.property(name);
        };
    }
}
