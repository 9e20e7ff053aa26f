package io.tablestream.bench.jmh;

import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.schemas.StoredEntityCodec;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The entities store's codecs, on every write and every row a read touches: the order-preserving
 * key codec (core's KeyCodec) and the stored-entity value codec (schemas' StoredEntityCodec).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class StoreCodecBenchmark {
    private StoredEntity stored;
    private byte[] storedBytes;
    private byte[] keyBytes;
    private String rowKey;

    @Setup
    public void setUp() {
        stored = SampleEntities.storedWithoutExpiry(150);
        rowKey = stored.entity().rowKey();
        storedBytes = StoredEntityCodec.encode(stored);
        keyBytes = KeyCodec.encode(SampleEntities.TABLE_ID, SampleEntities.PARTITION_KEY, rowKey);
    }

    @Benchmark
    public byte[] encodeKey() {
        return KeyCodec.encode(SampleEntities.TABLE_ID, SampleEntities.PARTITION_KEY, rowKey);
    }

    @Benchmark
    public EntityKey decodeKey() {
        return KeyCodec.decode(keyBytes);
    }

    @Benchmark
    public byte[] encodeStoredEntity() {
        return StoredEntityCodec.encode(stored);
    }

    @Benchmark
    public StoredEntity decodeStoredEntity() {
        return StoredEntityCodec.decode(SampleEntities.PARTITION_KEY, rowKey, storedBytes);
    }
}
