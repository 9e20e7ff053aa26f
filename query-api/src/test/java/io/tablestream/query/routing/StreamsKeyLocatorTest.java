package io.tablestream.query.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.CommandKey;
import io.tablestream.schemas.LogPartitioner;
import io.tablestream.processor.store.LocalReplicas;
import io.tablestream.processor.store.StoreReplica;
import java.net.URI;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StreamsKeyLocatorTest {
    private final StreamsKeyLocator locator = new StreamsKeyLocator(null, null, "t.commands", 8,
            Instance.parse("10.0.0.1:10002"), 10_000, false);

    /** Active 3, standby 4 (all caught up), current or not. */
    private static final class Copies implements LocalReplicas {
        boolean current;

        @Override
        public Set<Integer> active() {
            return Set.of(3);
        }

        @Override
        public Set<Integer> standby() {
            return Set.of(4);
        }

        @Override
        public OptionalLong lag(int partition) {
            return OptionalLong.of(0);
        }

        @Override
        public Map<Integer, Long> lags() {
            return Map.of(3, 0L, 4, 0L);
        }

        @Override
        public boolean current() {
            return current;
        }
    }

    @Test
    void servesNoLocalCopyWhileItsCopiesMayHaveGoneToOthers() {
        Copies copies = new Copies();
        StreamsKeyLocator clustered = new StreamsKeyLocator(null, copies, "t.commands", 8, Instance.parse("10.0.0.1:10002"), 0, false);
        StreamsKeyLocator single = new StreamsKeyLocator(null, copies, "t.commands", 8, null, 0, false);

        assertThat(clustered.localCopy(3, true)).isEmpty();
        assertThat(clustered.localCopy(4, true)).isEmpty();
        assertThat(single.localCopy(3, true)).contains(StoreReplica.ACTIVE);

        copies.current = true;
        assertThat(clustered.localCopy(3, true)).contains(StoreReplica.ACTIVE);
        assertThat(clustered.localCopy(4, true)).contains(StoreReplica.ACTIVE_OR_STANDBY);
    }

    @Test
    void aKeysPartitionIsTheLogsPartitionFunction() {
        CommandKey key = CommandKey.forEntity("acct", 42L, "customer-7");
        assertThat(locator.partitionOf(key)).isEqualTo(LogPartitioner.partitionOf(key, 8));
    }

    @Test
    void anotherInstancesAddressKeepsThePathExactlyAsTheClientSignedIt() {
        URI uri = locator.uriOf(Instance.parse("10.0.0.2:10003"), "/devstoreaccount1/t(PartitionKey='a%2Fb',RowKey='%C3%A9')",
                "$filter=PartitionKey%20eq%20'x'&sig=a%2Bb%3D");

        assertThat(uri.getRawPath()).isEqualTo("/devstoreaccount1/t(PartitionKey='a%2Fb',RowKey='%C3%A9')");
        assertThat(uri.getRawQuery()).isEqualTo("$filter=PartitionKey%20eq%20'x'&sig=a%2Bb%3D");
        assertThat(uri.getHost()).isEqualTo("10.0.0.2");
        assertThat(uri.getPort()).isEqualTo(10003);
        assertThat(uri.getScheme()).isEqualTo("http");
    }

    @Test
    void instancesServingHttpsAreReachedOverHttps() {
        StreamsKeyLocator https = new StreamsKeyLocator(null, null, "t.commands", 8, Instance.parse("node-1:10002"),
                0, true);

        URI uri = https.uriOf(Instance.parse("node-2:10002"), "/devstoreaccount1/t()", "$top=1");

        assertThat(uri.toString()).isEqualTo("https://node-2:10002/devstoreaccount1/t()?$top=1");
    }

    @Test
    void charactersAUriCannotHoldAreEscapedInTheQueryOnly() {
        URI uri = locator.uriOf(Instance.parse("[::1]:10003"), "/devstoreaccount1/t()", "$filter=N eq 1|2&x=\u00e9");

        assertThat(uri.getRawQuery()).isEqualTo("$filter=N%20eq%201%7C2&x=%C3%A9");
        assertThat(uri.getHost()).isEqualTo("[::1]");
    }

    @Test
    void anInstanceAddressIsHostAndPort() {
        assertThat(Instance.parse("[::1]:80")).isEqualTo(new Instance("::1", 80));
        assertThat(Instance.parse("node-2:10002").toString()).isEqualTo("node-2:10002");
        assertThatThrownBy(() -> Instance.parse("node-2")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Instance.parse("node-2:x")).isInstanceOf(IllegalArgumentException.class);
    }
}
