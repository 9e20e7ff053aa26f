package io.tablestream.query.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.processor.store.IndexBuild;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IndexStatusTest {

    @Test
    void everyStateAPartitionCanShowIsOneTheDocsList() throws IOException {
        List<String> shown = new ArrayList<>();
        shown.add(IndexStatus.state(null));
        for (IndexBuild.State s : IndexBuild.State.values()) {
            shown.add(IndexStatus.state(new IndexBuild(1, 2, s, null, 0, 0)));
        }
        String docs = Files.readString(Path.of("..", "docs", "indexes.md"));

        assertThat(shown).containsExactlyInAnyOrderElementsOf(IndexStatus.STATES);
        assertThat(IndexStatus.STATES).allSatisfy(state ->
                assertThat(docs).as("docs/indexes.md lists %s", state).contains("\"" + state + "\""));
    }
}
