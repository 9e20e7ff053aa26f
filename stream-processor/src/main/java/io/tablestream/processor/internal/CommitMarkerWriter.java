package io.tablestream.processor.internal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;

/**
 * Writes the commit marker of a transaction its coordinator committed but whose marker never
 * reached a partition. The Admin API can only abort ({@code abortTransaction}); this sends the same
 * WriteTxnMarkers request with the commit result, over a plain connection to the partition's leader
 * (so only for clusters reached over PLAINTEXT, the embedded broker among them).
 */
final class CommitMarkerWriter {
    /** The oldest version brokers serve: legacy epoch checks, as {@code abortTransaction} uses. */
    private static final short VERSION = ApiKeys.WRITE_TXN_MARKERS.oldestVersion();

    private CommitMarkerWriter() {
    }

    static void commit(Node leader, TopicPartition partition, long producerId, short producerEpoch,
                       int coordinatorEpoch, Duration timeout) throws IOException {
        WriteTxnMarkersRequestData data = new WriteTxnMarkersRequestData();
        data.markers().add(new WriteTxnMarkersRequestData.WritableTxnMarker()
                .setProducerId(producerId)
                .setProducerEpoch(producerEpoch)
                .setCoordinatorEpoch(coordinatorEpoch)
                .setTransactionResult(true)
                .setTopics(List.of(new WriteTxnMarkersRequestData.WritableTxnMarkerTopic()
                        .setName(partition.topic())
                        .setPartitionIndexes(List.of(partition.partition())))));
        WriteTxnMarkersRequest request = new WriteTxnMarkersRequest.Builder(data).build(VERSION);
        RequestHeader header = new RequestHeader(ApiKeys.WRITE_TXN_MARKERS, VERSION, "tablestream-marker-repair", 1);
        ByteBuffer bytes = request.serializeWithHeader(header);

        try (Socket socket = new Socket()) {
            int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
            socket.connect(new InetSocketAddress(leader.host(), leader.port()), millis);
            socket.setSoTimeout(millis);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] answer = new byte[in.readInt()];
            in.readFully(answer);
            WriteTxnMarkersResponse response = (WriteTxnMarkersResponse) AbstractResponse.parseResponse(
                    ByteBuffer.wrap(answer), header);
            for (WriteTxnMarkersResponseData.WritableTxnMarkerResult marker : response.data().markers()) {
                for (var topic : marker.topics()) {
                    for (var p : topic.partitions()) {
                        Errors error = Errors.forCode(p.errorCode());
                        if (error != Errors.NONE) {
                            throw new IOException("The broker refused the commit marker for " + topic.name() + "-"
                                    + p.partitionIndex() + ": " + error, error.exception());
                        }
                    }
                }
            }
        }
    }
}
