package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.azure.data.tables.models.TableServiceException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Assertions on the errors the official SDK surfaces. */
public final class ServiceErrors {
    private ServiceErrors() {
    }

    /**
     * Asserts that {@code call} fails with a {@link TableServiceException} of {@code status} whose
     * error code — in the parsed {@code odata.error} and in {@code x-ms-error-code} — is {@code code}.
     */
    public static TableServiceException assertServiceError(ThrowingCallable call, int status, String code) {
        TableServiceException e = catchThrowableOfType(TableServiceException.class, call);
        assertThat(e).as("expected %d %s", status, code).isNotNull();
        assertThat(e.getResponse().getStatusCode()).as("status of %s", e.getMessage()).isEqualTo(status);
        assertThat(e.getResponse().getHeaderValue("x-ms-error-code")).as("x-ms-error-code").isEqualTo(code);
        assertThat(e.getValue()).as("parsed odata.error").isNotNull();
        assertThat(e.getValue().getErrorCode().toString()).as("odata.error code").isEqualTo(code);
        return e;
    }
}
