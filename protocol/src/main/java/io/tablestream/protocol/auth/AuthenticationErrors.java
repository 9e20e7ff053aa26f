package io.tablestream.protocol.auth;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;

/** The errors every authentication scheme raises; no message quotes a signature, a key or a string-to-sign. */
final class AuthenticationErrors {
    private AuthenticationErrors() {
    }

    /** 403 AuthenticationFailed: credentials of the right form that cannot be accepted (expired, malformed SAS, bad date). */
    static TableServiceException authenticationFailed(String message) {
        return TableServiceException.of(ErrorCode.AUTHENTICATION_FAILED, message);
    }

    /** 400 InvalidAuthenticationInfo: an Authorization header that is not of the form the schemes take. */
    static TableServiceException invalidAuthenticationInfo(String message) {
        return TableServiceException.of(ErrorCode.INVALID_AUTHENTICATION_INFO, message);
    }

    /** 403 AuthorizationFailure: a signature no key of the account produced (see docs/azure-differences.md). */
    static TableServiceException signatureMismatch(String message) {
        return TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE, message);
    }
}
