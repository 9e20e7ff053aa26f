package io.tablestream.processor;

import io.tablestream.processor.internal.ProcessorNodes;
import org.apache.kafka.streams.Topology;

/**
 * Builds the topology: commands → apply (against the task's stores) → outcomes, change events,
 * registry records, dead letters; and the registry, a global store fed by the tables topic.
 */
public final class TablestreamTopology {
    private TablestreamTopology() {
    }

    public static Topology build(ProcessorSettings settings) {
        return ProcessorNodes.build(settings);
    }
}
