package io.tablestream.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SignedRequestTest {

    @Test
    void decodesQueryParametersKeepingRepeatsInOrder() {
        Map<String, List<String>> q = SignedRequest.parseQuery(
                "$filter=PartitionKey%20eq%20%27a%27&sig=ab%2Bc%3D&x=1&x=2&flag&empty=&plus=a+b&%24top=5");
        assertThat(q).containsEntry("$filter", List.of("PartitionKey eq 'a'"))
                .containsEntry("sig", List.of("ab+c="))
                .containsEntry("x", List.of("1", "2"))
                .containsEntry("flag", List.of(""))
                .containsEntry("empty", List.of(""))
                .containsEntry("plus", List.of("a b"))
                .containsEntry("$top", List.of("5"));
        assertThat(SignedRequest.parseQuery(null)).isEmpty();
        assertThat(SignedRequest.parseQuery("")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"a%20b,a b", "%C3%BC%E2%82%AC%F0%9D%84%9E,ü€𝄞", "100%,100%", "%zz,%zz", "%4,%4", "a+b,a+b", "'',''"})
    void decodesPercentEscapesAsUtf8AndKeepsMalformedOnes(String raw, String decoded) {
        assertThat(SignedRequest.percentDecode(raw, false)).isEqualTo(decoded);
    }

    @Test
    void findsHeadersWhateverTheirCase() {
        SignedRequest r = SignedRequest.builder().method("get").rawPath("/devstoreaccount1/Tables")
                .header("x-MS-Date", "d").header("Content-Type", "a").build();
        assertThat(r.method()).isEqualTo("GET");
        assertThat(r.header("X-MS-DATE")).contains("d");
        assertThat(r.header("content-type")).contains("a");
        assertThat(r.header("Date")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"/devstoreaccount1/Tables,devstoreaccount1", "/devstoreaccount1,devstoreaccount1", "/devstoreaccount1/,devstoreaccount1",
            "/dev%73toreaccount1/x,devstoreaccount1", "/,''", "'',''"})
    void takesTheAccountFromTheFirstPathSegment(String rawPath, String account) {
        assertThat(SignedRequest.builder().method("GET").rawPath(rawPath).build().account()).isEqualTo(account);
    }

    @Test
    void findsTheCompParameterWhateverItsCase() {
        SignedRequest r = SignedRequest.builder().method("GET").rawPath("/a").rawQuery("COMP=acl&restype=service").build();
        assertThat(r.queryValuesIgnoringCase("comp")).containsExactly("acl");
        assertThat(r.queryParameter("comp")).isEmpty();
    }

    @Test
    void printsNoHeaderOrQueryValues() {
        SignedRequest r = SignedRequest.builder().method("GET").rawPath("/devstoreaccount1/Tables")
                .rawQuery("sig=SECRETSIG").header("Authorization", "SharedKey devstoreaccount1:SECRETHEADER").build();
        assertThat(r.toString()).doesNotContain("SECRET").contains("sig").contains("Authorization");
    }

    @Test
    void isImmutable() {
        SignedRequest r = SignedRequest.builder().method("GET").rawPath("/a").rawQuery("x=1").header("h", "v").build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> r.query().put("y", List.of("2")))
                .isInstanceOf(UnsupportedOperationException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> r.headers().get("h").add("w"))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
