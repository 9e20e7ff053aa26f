package io.tablestream.bench.jmh;

import io.tablestream.core.filter.Filter;
import io.tablestream.core.model.Entity;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code $filter}: testing one stored entity (what a scan does per row it reads) and parsing the
 * text (once per query).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class FilterBenchmark {
    @Param({
        "PartitionKey eq 'load-0042' and RowKey ge 'r00000100' and RowKey lt 'r00000200'",
        "PartitionKey eq 'load-0042' and Quantity gt 500",
        "(Active eq true and Score lt 500000.5) or UpdatedAt ge datetime'2024-01-01T00:00:00Z' or Sequence eq 7L"
    })
    public String filter;

    private Filter parsed;
    private Entity entity;

    @Setup
    public void setUp() {
        parsed = Filter.parse(filter);
        entity = SampleEntities.stored(150);
    }

    @Benchmark
    public boolean test() {
        return parsed.test(entity);
    }

    @Benchmark
    public Filter parse() {
        return Filter.parse(filter);
    }
}
