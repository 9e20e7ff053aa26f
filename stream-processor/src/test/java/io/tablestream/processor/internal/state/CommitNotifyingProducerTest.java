package io.tablestream.processor.internal.state;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class CommitNotifyingProducerTest {
    private final MockProducer<byte[], byte[]> kafka =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final CommitNotifyingProducer producer = new CommitNotifyingProducer(kafka);

    @Test
    void aTransactionTheCoordinatorRefusesIsAFence() {
        producer.initTransactions();
        producer.beginTransaction();
        InvalidTxnStateException refused = new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state.");
        kafka.commitTransactionException = refused;
        kafka.abortTransactionException = refused;

        assertThatThrownBy(producer::commitTransaction).isInstanceOf(ProducerFencedException.class).hasCause(refused);
        assertThatThrownBy(producer::abortTransaction).isInstanceOf(ProducerFencedException.class).hasCause(refused);
    }

    @Test
    void otherFailuresPassAsTheyAre() {
        producer.initTransactions();
        producer.beginTransaction();
        TimeoutException timeout = new TimeoutException("slow");
        kafka.commitTransactionException = timeout;

        assertThatThrownBy(producer::commitTransaction).isSameAs(timeout);
    }
}
