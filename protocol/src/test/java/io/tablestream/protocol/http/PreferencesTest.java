package io.tablestream.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PreferencesTest {

    @Test
    void readsReturnContentAndRespondAsyncFromAnyHeaderValue() {
        Preferences p = Preferences.parse(List.of("return-no-content", "respond-async, wait=10"));

        assertThat(p.returnContent()).isFalse();
        assertThat(p.respondAsync()).isTrue();
        assertThat(p.returnContentOr(true)).isFalse();
    }

    @Test
    void leavesTheDefaultWhenTheClientSaysNothing() {
        Preferences p = Preferences.parse(List.of());

        assertThat(p.returnContent()).isNull();
        assertThat(p.returnContentOr(true)).isTrue();
        assertThat(p.respondAsync()).isFalse();
    }

    @Test
    void ignoresUnknownPreferencesAndCase() {
        Preferences p = Preferences.parse(List.of("odata.track-changes, Return-Content; foo=bar"));

        assertThat(p.returnContent()).isTrue();
        assertThat(p.respondAsync()).isFalse();
    }
}
