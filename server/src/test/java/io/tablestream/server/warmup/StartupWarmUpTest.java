package io.tablestream.server.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.protocol.auth.AccountKeys;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StartupWarmUpTest {
    @Test
    void theSharedScratchAccountIsTheSameForTheSameCommandLogAndNothingElse() {
        StartupWarmUp one = StartupWarmUp.sharedScratchAccount("Ah1dPzS6R9uQ0mJXG3yKzA", Set.of()).orElseThrow();
        StartupWarmUp again = StartupWarmUp.sharedScratchAccount("Ah1dPzS6R9uQ0mJXG3yKzA", Set.of()).orElseThrow();
        StartupWarmUp other = StartupWarmUp.sharedScratchAccount("Bh1dPzS6R9uQ0mJXG3yKzA", Set.of()).orElseThrow();

        assertThat(one.account()).matches(AccountKeys.ACCOUNT_NAME).startsWith("warmup").hasSize(19);
        assertThat(again.account()).isEqualTo(one.account());
        assertThat(again.key()).isEqualTo(one.key());
        assertThat(Base64.getDecoder().decode(one.key())).hasSize(32);
        assertThat(other.account()).isNotEqualTo(one.account());
        assertThat(other.key()).isNotEqualTo(one.key());
        assertThat(again.table()).as("each process its own scratch table").isNotEqualTo(one.table())
                .matches("WarmUp[a-z0-9]+");
        assertThat(StartupWarmUp.sharedScratchAccount("Ah1dPzS6R9uQ0mJXG3yKzA", Set.of(one.account())))
                .as("a configured account of that name").isEmpty();
    }

    @Test
    void anInstancesScratchTablesBeginWithItsOwnTag() {
        StartupWarmUp one = StartupWarmUp.sharedScratchAccount("Ah1dPzS6R9uQ0mJXG3yKzA", Set.of(), "node-1").orElseThrow();
        StartupWarmUp again = StartupWarmUp.sharedScratchAccount("Ah1dPzS6R9uQ0mJXG3yKzA", Set.of(), "node-1").orElseThrow();
        StartupWarmUp other = StartupWarmUp.sharedScratchAccount("Ah1dPzS6R9uQ0mJXG3yKzA", Set.of(), "node-2").orElseThrow();

        assertThat(one.instanceTables()).matches("WarmUp[a-z0-9]{8}x").isEqualTo(again.instanceTables())
                .isNotEqualTo(other.instanceTables());
        assertThat(one.table()).startsWith(one.instanceTables()).isNotEqualTo(again.table()).hasSizeLessThan(64);
        assertThat(again.table()).startsWith(one.instanceTables());
        assertThat(other.table()).doesNotStartWith(one.instanceTables());
    }

    @Test
    void aWarmUpStoppedBeforeItBeganSendsNoWrite() throws IOException {
        StartupWarmUp warmUp = StartupWarmUp.sharedScratchAccount("Ah1dPzS6R9uQ0mJXG3yKzA", Set.of()).orElseThrow();
        warmUp.stop("a client's first request (account devstoreaccount1)");
        warmUp.stop("the instance stops");

        StartupWarmUp.Result result = warmUp.run("http://127.0.0.1:" + closedPort(), Duration.ofSeconds(30));

        assertThat(result.writes()).isZero();
        assertThat(result.ended()).isEqualTo("stopped before it began: a client's first request (account devstoreaccount1)");
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void endsAtOnceWhenNothingAnswers() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        long begin = System.nanoTime();

        StartupWarmUp.Result result = StartupWarmUp.sharedScratchAccount("Ah1dPzS6R9uQ0mJXG3yKzA", Set.of()).orElseThrow()
                .run("http://127.0.0.1:" + closed, Duration.ofSeconds(30));

        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(25));
        assertThat(result.writes()).isZero();
        assertThat(result.ended()).startsWith("stopped: the scratch table was not created");
    }
}
