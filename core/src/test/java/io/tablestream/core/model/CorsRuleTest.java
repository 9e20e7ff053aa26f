package io.tablestream.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.model.CorsRule.Method;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CorsRuleTest {
    @Test
    void parsesCommaSeparatedListsTrimmingEntriesAndKeepingTheirOrder() {
        CorsRule r = CorsRule.parse(" http://a.example, http://b.example ", "PUT, get,MERGE",
                "x-ms-meta*, content-type", "", 30);
        assertThat(r.allowedOrigins()).containsExactly("http://a.example", "http://b.example");
        assertThat(r.allowedMethods()).containsExactly(Method.PUT, Method.GET, Method.MERGE);
        assertThat(r.allowedHeaders()).containsExactly("x-ms-meta*", "content-type");
        assertThat(r.exposedHeaders()).isEmpty();
        assertThat(r.maxAgeInSeconds()).isEqualTo(30);
        assertThat(r.allowsAnyOrigin()).isFalse();
    }

    @Test
    void allowsEveryOriginWithAStar() {
        assertThat(CorsRule.parse("*", "GET", "", "", 0).allowsAnyOrigin()).isTrue();
    }

    @Test
    void rejectsAMethodNoRuleMayAllow() {
        assertThatThrownBy(() -> CorsRule.parse("*", "GET,FETCH", "", "", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FETCH");
    }

    @Test
    void rejectsARuleWithoutOriginsOrMethods() {
        assertThatThrownBy(() -> CorsRule.parse(" , ", "GET", "", "", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CorsRule.parse("*", "", "", "", 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsANegativeMaxAge() {
        assertThatThrownBy(() -> CorsRule.parse("*", "GET", "", "", -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAnEntryLongerThan256Characters() {
        assertThat(CorsRule.parse("http://" + "a".repeat(249), "GET", "", "", 0).allowedOrigins().get(0)).hasSize(256);
        assertThatThrownBy(() -> CorsRule.parse("http://" + "a".repeat(250), "GET", "", "", 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void acceptsSixtyFourOriginsButNotSixtyFive() {
        assertThat(CorsRule.parse(origins(64), "GET", "", "", 0).allowedOrigins()).hasSize(64);
        assertThatThrownBy(() -> CorsRule.parse(origins(65), "GET", "", "", 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void acceptsTwoPrefixedHeadersButNotThree() {
        assertThat(CorsRule.parse("*", "GET", "a*,b*,c", "", 0).allowedHeaders()).hasSize(3);
        assertThatThrownBy(() -> CorsRule.parse("*", "GET", "a*,b*,c*", "", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefixed");
        assertThatThrownBy(() -> CorsRule.parse("*", "GET", "", "a*,b*,c*", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefixed");
    }

    @Test
    void acceptsSixtyFourLiteralHeadersButNotSixtyFive() {
        assertThat(CorsRule.parse("*", "GET", headers(64), "", 0).allowedHeaders()).hasSize(64);
        assertThatThrownBy(() -> CorsRule.parse("*", "GET", headers(65), "", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("literal");
    }

    private static String origins(int n) {
        return IntStream.range(0, n).mapToObj(i -> "http://o" + i + ".example").collect(Collectors.joining(","));
    }

    private static String headers(int n) {
        return IntStream.range(0, n).mapToObj(i -> "x-h" + i).collect(Collectors.joining(","));
    }

    @Test
    void copiesTheListsItIsGiven() {
        java.util.ArrayList<String> origins = new java.util.ArrayList<>(List.of("*"));
        CorsRule r = CorsRule.of(origins, List.of(Method.GET), List.of(), List.of(), 0);
        origins.add("http://late.example");
        assertThat(r.allowedOrigins()).containsExactly("*");
    }
}
