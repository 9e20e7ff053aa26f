package io.tablestream.core.odata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetadataLevelTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "application/json;odata=nometadata|NO",
            "application/json;odata=minimalmetadata|MINIMAL",
            "application/json;odata=fullmetadata|FULL",
            "application/json|MINIMAL",
            "Application/JSON; ODATA=FullMetadata|FULL",
            "application/json; charset=utf-8; odata=nometadata; streaming=true|NO",
            "application/json;odata=\"fullmetadata\"|FULL",
            "json|MINIMAL",
            "*/*|MINIMAL",
            "application/*|MINIMAL",
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8|MINIMAL",
            "application/json;odata=nometadata;q=0, application/json;odata=fullmetadata|FULL",
            "application/atom+xml, application/json;odata=nometadata|NO"})
    void understandsAcceptValues(String accept, MetadataLevel expected) {
        assertThat(MetadataLevel.negotiate(null, accept)).isEqualTo(expected);
    }

    @Test
    void letsFormatOverrideAccept() {
        assertThat(MetadataLevel.negotiate("application/json;odata=fullmetadata", "application/json;odata=nometadata"))
                .isEqualTo(MetadataLevel.FULL);
        assertThat(MetadataLevel.negotiate("", "application/json;odata=nometadata")).isEqualTo(MetadataLevel.NO);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "application/atom+xml|ATOM_FORMAT_NOT_SUPPORTED",
            "application/xml|ATOM_FORMAT_NOT_SUPPORTED",
            "atom|ATOM_FORMAT_NOT_SUPPORTED",
            "application/json;odata=verbose|JSON_FORMAT_NOT_SUPPORTED",
            "text/plain|MEDIA_TYPE_NOT_SUPPORTED",
            "application/json;q=0|MEDIA_TYPE_NOT_SUPPORTED",
            "application/atom+xml, text/plain|ATOM_FORMAT_NOT_SUPPORTED"})
    void refusesFormatsTheServiceDoesNotSpeak(String accept, ErrorCode expected) {
        assertThatThrownBy(() -> MetadataLevel.negotiate(null, accept))
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(expected);
                    assertThat(e.httpStatus()).isEqualTo(415);
                });
    }

    @Test
    void refusesAMissingFormatAsTheAtomDefault() {
        assertThatThrownBy(() -> MetadataLevel.negotiate(null, null))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.ATOM_FORMAT_NOT_SUPPORTED));
    }

    @Test
    void namesTheResponseContentTypeAsTheServiceDoes() {
        assertThat(MetadataLevel.MINIMAL.contentType())
                .isEqualTo("application/json;odata=minimalmetadata;streaming=true;charset=utf-8");
    }
}
