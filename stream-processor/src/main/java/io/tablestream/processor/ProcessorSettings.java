package io.tablestream.processor;

import io.tablestream.processor.internal.ActiveTaskStores;
import io.tablestream.processor.internal.PartitionDeletions;
import io.tablestream.processor.internal.state.KeyPresence;
import io.tablestream.processor.store.AppliedOffsets;
import io.tablestream.processor.store.RegistryEvents;
import io.tablestream.processor.store.TransactionProgress;
import java.time.Clock;
import java.util.Objects;

/**
 * What the topology needs to know besides its topics.
 *
 * @param commandPartitions partitions of the commands topic (each command's partition is checked against its key)
 * @param housekeeping the tasks' background work: TTL expiry, sweeps, index builds
 * @param clock wall-clock time, for the timestamps of records that are not decisions (catch-up markers);
 *     a decision never reads it (its time is the command's, see {@code TaskState})
 * @param observer told of each applied entity change
 * @param answers when writes are answered, and where decided outcomes are handed over
 * @param transactions where the tasks note the transaction parts they decided, for status reads here
 * @param metrics counts what the tasks do (outcomes, changes, dead letters)
 * @param partitionDeletions which partitions' stores may hold partition deletions, for readers to skip
 *     looking for them where none can be ({@link PartitionDeletions#presence()})
 * @param activeStores where each running active task hands its stores over to readers, and takes them back
 */
public record ProcessorSettings(Topics topics, int commandPartitions, Housekeeping housekeeping, Clock clock,
                                AppliedOffsets appliedOffsets,
                                RegistryEvents registryEvents, ApplyObserver observer, WriteAnswers answers,
                                TransactionProgress transactions, StreamProcessorMetrics metrics,
                                KeyPresence partitionDeletions, ActiveTaskStores activeStores) {
    public ProcessorSettings {
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(housekeeping, "housekeeping");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(appliedOffsets, "appliedOffsets");
        Objects.requireNonNull(registryEvents, "registryEvents");
        Objects.requireNonNull(observer, "observer");
        Objects.requireNonNull(answers, "answers");
        Objects.requireNonNull(transactions, "transactions");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(partitionDeletions, "partitionDeletions");
        Objects.requireNonNull(activeStores, "activeStores");
        if (commandPartitions < 1) {
            throw new IllegalArgumentException("partitions must be positive");
        }
    }

    public ProcessorSettings(Topics topics, int commandPartitions, Housekeeping housekeeping, Clock clock,
                             AppliedOffsets appliedOffsets, RegistryEvents registryEvents, ApplyObserver observer,
                             WriteAnswers answers, TransactionProgress transactions, StreamProcessorMetrics metrics) {
        this(topics, commandPartitions, housekeeping, clock, appliedOffsets, registryEvents, observer, answers,
                transactions, metrics, PartitionDeletions.presence(), new ActiveTaskStores());
    }

    public ProcessorSettings(Topics topics, int commandPartitions, Housekeeping housekeeping, Clock clock,
                             AppliedOffsets appliedOffsets, RegistryEvents registryEvents, ApplyObserver observer,
                             WriteAnswers answers) {
        this(topics, commandPartitions, housekeeping, clock, appliedOffsets,
                registryEvents, observer, answers, new TransactionProgress(), new StreamProcessorMetrics(commandPartitions));
    }

    /** Defaults for everything but the topics, partitions and clock. */
    public static ProcessorSettings defaults(Topics topics, int commandPartitions, Clock clock) {
        return new ProcessorSettings(topics, commandPartitions, Housekeeping.DEFAULTS, clock, new AppliedOffsets(), new RegistryEvents(), ApplyObserver.NONE,
                WriteAnswers.atDecision(WriteAnswers.Handoff.NONE), new TransactionProgress(),
                new StreamProcessorMetrics(commandPartitions));
    }
}
