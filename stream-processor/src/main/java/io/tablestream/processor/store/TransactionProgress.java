package io.tablestream.processor.store;

import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TransactionStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of cross-partition transactions that this instance's tasks have decided but whose
 * reports their coordinators have not recorded yet. A part's report reaches its coordinator only
 * after the owner's Kafka transaction commits; but a decision is final once made (decisions are a
 * pure function of the log, and the part is on the log: a crash replays it to the same result), just
 * as a sync write is answered when decided. So a status read here shows such a part as decided at
 * once, with its {@code Reports} still 0 until the coordinator records the report.
 *
 * <p>Bounded: at most {@value #MAX_PARTS} parts are remembered (the oldest are forgotten first; a
 * forgotten part shows Pending until its report is recorded, as it would without this).
 */
public final class TransactionProgress {
    static final int MAX_PARTS = 100_000;

    private record Decided(Outcome.Failure failure) {
    }

    private final Map<String, Decided> decided = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Decided> eldest) {
            return size() > MAX_PARTS;
        }
    };

    private static String key(String account, String transactionId, int part) {
        return account + '/' + transactionId + '/' + part;
    }

    /** Called by the stream thread that decided a part (failure null: applied). */
    public synchronized void decided(String account, String transactionId, int part, Outcome.Failure failure) {
        decided.put(key(account, transactionId, part), new Decided(failure));
    }

    /** Called by the coordinator's stream thread once it recorded the part's report. */
    public synchronized void recorded(String account, String transactionId, int part) {
        decided.remove(key(account, transactionId, part));
    }

    /** {@code status} with its pending parts that a task here has decided shown as decided. */
    public synchronized TransactionStatus overlay(TransactionStatus status) {
        if (decided.isEmpty()) {
            return status;
        }
        List<TransactionStatus.Part> parts = new ArrayList<>(status.parts().size());
        boolean changed = false;
        for (int i = 0; i < status.parts().size(); i++) {
            TransactionStatus.Part p = status.parts().get(i);
            Decided d = p.state() == TransactionStatus.PartState.PENDING
                    ? decided.get(key(status.account(), status.transactionId(), i)) : null;
            if (d == null) {
                parts.add(p);
            } else {
                changed = true;
                parts.add(new TransactionStatus.Part(p.table(), p.partitionKey(), p.operations(),
                        d.failure() == null ? TransactionStatus.PartState.APPLIED : TransactionStatus.PartState.FAILED,
                        d.failure(), p.reports()));
            }
        }
        return changed ? new TransactionStatus(status.transactionId(), status.account(), status.acceptedAt(), parts)
                : status;
    }
}
