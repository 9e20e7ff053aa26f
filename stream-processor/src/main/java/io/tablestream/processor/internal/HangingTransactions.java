package io.tablestream.processor.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CoordinatorLoadInProgressException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and aborts transactions that will never complete on the partitions the processor writes.
 *
 * <p>A transaction is open on a partition from its first record until the coordinator writes a
 * commit or abort marker there; until then read_committed readers (restoring stores, outcome and
 * change-feed consumers) stop at it. The coordinator can lose track of such a partition: a broker
 * that restarts after a crash loads its transaction log before it has re-registered, sees its own
 * partitions without a leader for a moment, takes them for deleted, and completes the transaction
 * without writing their markers. Nothing ever closes those transactions, and a processor whose
 * stores restore from such a partition never starts.
 *
 * <p>A transaction is hanging when its producer is no longer in a transaction that covers that
 * partition — per its coordinator — and the partition still shows the same open transaction on a
 * second look. It is then completed as its coordinator decided: committed when the coordinator
 * records it as committed (the other partitions of the transaction may already hold their commit
 * markers: aborting this one would apply the transaction in part), aborted when it records an
 * abort. When the decision is no longer known (the producer has moved on), it is aborted, which is
 * what Kafka's own tooling does; this check runs before the processor starts its producers so that
 * the coordinator still knows.
 *
 * <p>"No longer known" must not be mistaken for "not known at this moment": while a transaction's
 * coordinator moves to another broker (a broker killed, its partitions of the transaction log led
 * anew and loaded), the listing of transactions can lack a live producer's transaction, which its
 * producer then commits once the new coordinator has loaded it; aborting its partitions meanwhile
 * would drop them from a committed transaction (seen: the change events of committed writes lost,
 * their changelog records with them). So a transaction whose decision is unknown is aborted only when
 * every partition of the transaction log has a leader, and only once the same open transaction has
 * been seen so by checks {@code unknownAbortAge} apart (twice the transaction timeout: a transaction
 * its coordinator knows ends, by commit or by the coordinator's abort, well within that).
 *
 * <p>A transaction can also be left open by its producer rather than by its coordinator: an instance
 * that crashed, or was cut off from the brokers, mid-transaction. Its coordinator aborts it only once
 * the transaction timeout has passed since it began, and until then the partitions it wrote hold back
 * their new owners (restoring a store stops at the open transaction, outcomes written after it stay
 * unread). {@link #fenceDepartedOwners} ends such a transaction as soon as another instance owns
 * one of its partitions.
 *
 * <p>One class, over 400 lines: finding, completing and fencing share one reading of the brokers'
 * transaction state (listings, descriptions, the transaction log's leaders, with the retries a
 * broker's fail-over calls for) and the memory of what earlier checks saw.
 */
public final class HangingTransactions {
    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);

    private static final String TRANSACTION_LOG = "__transaction_state";
    /** How long to wait before asking the brokers again for what a moment of fail-over hid. */
    private static final Duration RETRY_PAUSE = Duration.ofMillis(100);

    private final Admin admin;
    private final Duration timeout;
    private final boolean plaintext;
    private final Duration unknownAbortAge;
    /** Open transactions whose decision was unknown at a check, with when a check first saw each ({@link System#nanoTime()}). */
    private final Map<OpenTransaction, Long> unknownSince = new HashMap<>();

    /**
     * @param plaintext whether the cluster is reached over PLAINTEXT, so that a commit marker can be
     *                  written (see {@link CommitMarkerWriter}); otherwise a committed transaction
     *                  left hanging is reported for the operator and left alone
     */
    public HangingTransactions(Admin admin, Duration timeout, boolean plaintext) {
        this(admin, timeout, plaintext, Duration.ZERO);
    }

    /**
     * @param unknownAbortAge how long the same open transaction must have been seen with no decision
     *                        known before {@link #repair} aborts it (see the class comment); checks
     *                        remember what they saw, so one instance serves them all
     */
    public HangingTransactions(Admin admin, Duration timeout, boolean plaintext, Duration unknownAbortAge) {
        this.admin = admin;
        this.timeout = timeout;
        this.plaintext = plaintext;
        this.unknownAbortAge = unknownAbortAge;
    }

    /** How the coordinator decided a transaction, as far as it still knows. */
    enum Decision { COMMIT, ABORT, UNKNOWN }

    /** One open transaction seen on one partition. */
    record OpenTransaction(TopicPartition partition, long producerId, int producerEpoch, long startOffset,
                           int coordinatorEpoch) {
    }

    /**
     * Completes every hanging transaction on the partitions of the topics {@code ours} accepts (and
     * of the consumer offsets topic, where a transaction's offset commit waits for its marker too).
     *
     * @return the transactions completed
     */
    public List<OpenTransaction> repair(Predicate<String> ours) throws InterruptedException {
        try {
            Map<TopicPartition, Node> leaders = partitionsOf(ours);
            List<OpenTransaction> open = openTransactions(List.copyOf(leaders.keySet()));
            if (open.isEmpty()) {
                unknownSince.clear();
                return List.of();
            }
            Map<Long, TransactionDescription> coordinators = describeByProducer(open);
            List<OpenTransaction> suspects = open.stream()
                    .filter(o -> coordinators.get(o.producerId()) == null || !covers(coordinators.get(o.producerId()), o))
                    .toList();
            if (suspects.isEmpty()) {
                unknownSince.clear();
                return List.of();
            }
            // A transaction that was merely between its completion and our first look is gone by now.
            Set<OpenTransaction> stillOpen = new HashSet<>(openTransactions(
                    suspects.stream().map(OpenTransaction::partition).distinct().toList()));
            long now = System.nanoTime();
            Boolean transactionLogLed = null;
            Set<OpenTransaction> unknown = new HashSet<>();
            List<OpenTransaction> completed = new ArrayList<>();
            for (OpenTransaction hanging : suspects) {
                if (!stillOpen.contains(hanging)) {
                    continue;
                }
                TransactionDescription coordinator = coordinators.get(hanging.producerId());
                if (decision(coordinator, hanging) == Decision.UNKNOWN) {
                    unknown.add(hanging);
                    if (transactionLogLed == null) {
                        transactionLogLed = transactionLogLed();
                    }
                    if (!mayAbortUnknown(hanging, now, transactionLogLed)) {
                        continue;
                    }
                }
                if (complete(hanging, coordinator, leaders.get(hanging.partition()))) {
                    completed.add(hanging);
                }
            }
            unknownSince.keySet().retainAll(unknown);
            completed.forEach(unknownSince::remove);
            return completed;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot check the processor's partitions for hanging transactions: " + e, e);
        }
    }

    /**
     * Fences the producers whose ongoing transaction wrote to a partition {@code owned} accepts (the
     * changelog partitions of tasks this instance has just been given) and whose transactional id is not one of
     * {@code own}: their instance has gone, or gave the task up without committing (it commits a task
     * it hands over before the group gives the task to another), so the transaction can only end by an
     * abort. Fencing aborts it at once (the coordinator bumps the producer's epoch), where waiting
     * would hold the partitions for the rest of the transaction timeout; should that instance still
     * run, its next request is refused and it rejoins the group, as after any fence. Nothing is lost:
     * the commands the aborted transaction consumed are applied again by their new owner.
     *
     * <p>Only changelog partitions tell who owned a task: the other partitions a transaction writes
     * (outcomes, the change feed, consumer offsets) are shared by every task.
     *
     * @param transactionalIdPrefix the beginning of the transactional ids to look at (the processor's)
     * @return the transactional ids fenced
     */
    public Set<String> fenceDepartedOwners(String transactionalIdPrefix, Predicate<TopicPartition> owned,
                                           Predicate<String> own)
            throws InterruptedException, ExecutionException, TimeoutException {
        Set<String> candidates = new HashSet<>();
        for (TransactionListing l : listTransactions(new ListTransactionsOptions()
                .filterStates(List.of(TransactionState.ONGOING)))) {
            if (l.transactionalId().startsWith(transactionalIdPrefix) && !own.test(l.transactionalId())) {
                candidates.add(l.transactionalId());
            }
        }
        if (candidates.isEmpty()) {
            return Set.of();
        }
        Map<String, TransactionDescription> described = admin.describeTransactions(candidates).all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<String, TransactionDescription> departed = new HashMap<>();
        described.forEach((id, d) -> {
            if (d.state() == TransactionState.ONGOING && d.topicPartitions().stream().anyMatch(owned)) {
                departed.put(id, d);
            }
        });
        if (departed.isEmpty()) {
            return Set.of();
        }
        admin.fenceProducers(departed.keySet()).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        long now = System.currentTimeMillis();
        departed.forEach((id, d) -> LOG.warn("Fenced {}, whose transaction (producer {} epoch {}, open {} ms) wrote to {}"
                + " that this instance now owns: its instance has gone or gave the task up, and the transaction would"
                + " have held the partitions it wrote until its timeout ({} ms); it is aborted now", id, d.producerId(),
                d.producerEpoch(), d.transactionStartTimeMs().isPresent() ? now - d.transactionStartTimeMs().getAsLong() : -1,
                d.topicPartitions().stream().filter(owned).sorted(java.util.Comparator.comparing(
                        TopicPartition::toString)).toList(), d.transactionTimeoutMs()));
        return departed.keySet();
    }

    /**
     * What the coordinator decided for {@code open}: a completed transaction of the same epoch, or of
     * the next (transactions v2 bump the epoch when they end).
     */
    static Decision decision(TransactionDescription d, OpenTransaction open) {
        if (d == null || (d.producerEpoch() != open.producerEpoch() && d.producerEpoch() != open.producerEpoch() + 1)) {
            return Decision.UNKNOWN;
        }
        return switch (d.state()) {
            case COMPLETE_COMMIT -> Decision.COMMIT;
            case COMPLETE_ABORT -> Decision.ABORT;
            default -> Decision.UNKNOWN;
        };
    }

    /**
     * Whether an open transaction with no known decision may be aborted now: every partition of the
     * transaction log has a leader (a listing without one may lack live transactions), and a check
     * {@code unknownAbortAge} ago already saw it so. Remembers when it was first seen.
     */
    boolean mayAbortUnknown(OpenTransaction hanging, long now, boolean transactionLogLed) {
        Long since = unknownSince.putIfAbsent(hanging, now);
        if (since == null) {
            since = now;
            if (!unknownAbortAge.isZero()) {
                LOG.info("An open transaction on {} (producer {} epoch {}, open since offset {}) is not known to its"
                        + " coordinator at the moment; it is aborted if it is still open, and still unknown, {} s from"
                        + " now", hanging.partition(), hanging.producerId(), hanging.producerEpoch(), hanging.startOffset(),
                        unknownAbortAge.toSeconds());
            }
        }
        return transactionLogLed && now - since >= unknownAbortAge.toNanos();
    }

    /** Whether every partition of the transaction log has a leader: only then does a listing of transactions name them all. */
    private boolean transactionLogLed() throws InterruptedException {
        try {
            TopicDescription log = admin.describeTopics(Set.of(TRANSACTION_LOG)).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(TRANSACTION_LOG);
            return log != null && log.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /** The partitions of our topics, with their leaders. */
    private Map<TopicPartition, Node> partitionsOf(Predicate<String> ours)
            throws InterruptedException, ExecutionException, TimeoutException {
        Set<String> names = new HashSet<>();
        for (String topic : admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
                .names().get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            if (ours.test(topic) || topic.equals("__consumer_offsets")) {
                names.add(topic);
            }
        }
        Map<TopicPartition, Node> partitions = new HashMap<>();
        for (TopicDescription topic : admin.describeTopics(names).allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).values()) {
            topic.partitions().forEach(p -> partitions.put(new TopicPartition(topic.name(), p.partition()), p.leader()));
        }
        return partitions;
    }

    private List<OpenTransaction> openTransactions(List<TopicPartition> partitions)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<OpenTransaction> open = new ArrayList<>();
        var described = admin.describeProducers(partitions).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        described.forEach((partition, producers) -> {
            for (ProducerState p : producers.activeProducers()) {
                if (p.currentTransactionStartOffset().isPresent()) {
                    open.add(new OpenTransaction(partition, p.producerId(), p.producerEpoch(),
                            p.currentTransactionStartOffset().getAsLong(), p.coordinatorEpoch().orElse(-1)));
                }
            }
        });
        return open;
    }

    static boolean covers(TransactionDescription d, OpenTransaction o) {
        return switch (d.state()) {
            case ONGOING -> d.producerEpoch() == o.producerEpoch() && d.topicPartitions().contains(o.partition());
            // The coordinator is writing markers for this producer right now (with a bumped epoch under
            // transactions v2): leave it alone, a later look will find the partition closed.
            case PREPARE_COMMIT, PREPARE_ABORT, PREPARE_EPOCH_FENCE -> true;
            // a state this client cannot read: never abort on what it does not understand
            case UNKNOWN -> true;
            case EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT -> false;
        };
    }

    private Map<Long, TransactionDescription> describeByProducer(List<OpenTransaction> open)
            throws InterruptedException, ExecutionException, TimeoutException {
        Set<Long> producerIds = new HashSet<>();
        open.forEach(o -> producerIds.add(o.producerId()));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                Map<String, Long> ids = new HashMap<>();
                for (TransactionListing l : listTransactions(new ListTransactionsOptions()
                        .filterProducerIds(producerIds))) {
                    ids.put(l.transactionalId(), l.producerId());
                }
                Map<Long, TransactionDescription> byProducer = new HashMap<>();
                if (!ids.isEmpty()) {
                    admin.describeTransactions(ids.keySet()).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                            .values().forEach(d -> byProducer.put(d.producerId(), d));
                }
                return byProducer;
            } catch (ExecutionException e) {
                boolean retriable = e.getCause() instanceof CoordinatorLoadInProgressException
                        || e.getCause() instanceof TransactionalIdNotFoundException;
                if (!retriable || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(RETRY_PAUSE.toMillis()); // the coordinator is still loading its log: its answer would be incomplete
            }
        }
    }

    /**
     * The transactions {@code options} selects, listed by every broker. Kafka's admin client fails
     * such a listing with an {@link IllegalArgumentException} ("Unexpected key set:
     * [BrokerKey(brokerId=N)]") when the cluster names broker N but the client's own metadata does
     * not have it yet, as for a moment after a broker came back: the client cannot look up one
     * broker of a request to all of them again. It asks for new metadata meanwhile, so the listing is
     * asked for again, within the timeout, rather than failing the whole check.
     */
    private Collection<TransactionListing> listTransactions(ListTransactionsOptions options)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return admin.listTransactions(options).all().get(Math.max(1, deadline - System.nanoTime()),
                        TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof IllegalArgumentException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(RETRY_PAUSE.toMillis());
            }
        }
    }

    /** Completes {@code hanging} as decided; false when it must be left to the operator. */
    private boolean complete(OpenTransaction hanging, TransactionDescription coordinator, Node leader)
            throws InterruptedException, ExecutionException, TimeoutException {
        Decision decision = decision(coordinator, hanging);
        String what = hanging.partition() + ": producer " + hanging.producerId() + " epoch " + hanging.producerEpoch()
                + ", open since offset " + hanging.startOffset() + "; coordinator: "
                + (coordinator == null ? "no transaction" : coordinator.state() + " at epoch " + coordinator.producerEpoch());
        if (decision == Decision.COMMIT) {
            if (!plaintext || leader == null || leader.isEmpty()) {
                LOG.error("A transaction its coordinator committed never got its commit marker on {}, and this cluster"
                        + " is not reached over PLAINTEXT, so Tablestream cannot write it: readers of the partition are"
                        + " stuck until an operator completes the transaction", what);
                return false;
            }
            LOG.warn("Committing a transaction that would never complete on {} (its coordinator committed it but"
                    + " never wrote the marker there; read_committed readers of the partition were stuck behind it)",
                    what);
            try {
                CommitMarkerWriter.commit(leader, hanging.partition(), hanging.producerId(),
                        (short) hanging.producerEpoch(), hanging.coordinatorEpoch(), timeout);
            } catch (java.io.IOException e) {
                LOG.warn("Writing the commit marker on {} failed; trying again later: {}", what, e.toString());
                return false;
            }
            return true;
        }
        if (decision == Decision.UNKNOWN) {
            LOG.warn("Aborting a transaction that would never complete on {}; its coordinator no longer knows how it"
                    + " ended (if it had committed elsewhere, this partition's part is lost)", what);
        } else {
            LOG.warn("Aborting a transaction that would never complete on {} (its coordinator aborted it but never"
                    + " wrote the marker there)", what);
        }
        try {
            admin.abortTransaction(new AbortTransactionSpec(hanging.partition(), hanging.producerId(),
                    (short) hanging.producerEpoch(), hanging.coordinatorEpoch()))
                    .all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof InvalidProducerEpochException)) {
                throw e;
            }
            // The partition has moved past that epoch since it was looked at: its coordinator's own marker
            // landed meanwhile (on a cluster, a partition whose leader just moved receives it late).
            LOG.info("The transaction on {} was completed by its coordinator meanwhile", what);
        }
        return true;
    }
}
