package io.tablestream.bench.jmh;

import io.tablestream.core.model.Entity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.odata.EntityBody;
import io.tablestream.core.odata.EntityFeedWriter;
import io.tablestream.core.odata.EntityJsonWriter;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.core.odata.ODataJsonReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
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
 * The OData JSON codec: reading an Insert Entity body as the Java SDK sends it, writing one entity
 * (Get Entity) and a feed page of 100 (Query Entities) at the metadata levels clients ask for (the
 * Java SDK asks for full metadata on reads).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class EntityJsonBenchmark {
    /** The response's metadata level; a state of its own so that reading is not run once per level. */
    @State(Scope.Benchmark)
    public static class Response {
        @Param({"MINIMAL", "FULL"})
        public MetadataLevel level;
    }

    private byte[] body;
    private Entity entity;
    private List<Entity> page;
    private ODataContext context;
    private ByteArrayOutputStream out;

    @Setup
    public void setUp() {
        body = SampleEntities.requestBody(150);
        entity = SampleEntities.stored(150);
        page = SampleEntities.page(100);
        context = ODataContext.forService("http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1")
                .withTable(TableName.of("Bench"));
        out = new ByteArrayOutputStream(64 * 1024);
    }

    @Benchmark
    public EntityBody readEntity() {
        return ODataJsonReader.readEntity(body);
    }

    @Benchmark
    public int writeEntity(Response response) throws IOException {
        out.reset();
        EntityJsonWriter.writeEntity(out, context, entity, response.level);
        return out.size();
    }

    @Benchmark
    public int writeFeedOf100(Response response) throws IOException {
        out.reset();
        EntityFeedWriter feed = EntityFeedWriter.begin(out, context, response.level);
        for (Entity e : page) {
            feed.write(e);
        }
        feed.finish();
        return out.size();
    }
}
