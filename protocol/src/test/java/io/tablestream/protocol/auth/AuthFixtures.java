package io.tablestream.protocol.auth;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.model.EmulatorAccount;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.client.SharedKeySigning;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Keys, clocks, request surgery and an independent signer for the auth tests. */
final class AuthFixtures {
    static final String ACCOUNT = EmulatorAccount.NAME;
    static final String KEY = EmulatorAccount.KEY;
    /** Another valid key (not the emulator's). */
    static final String OTHER_KEY = Base64.getEncoder().encodeToString("another secret key of 32 bytes!!".getBytes(StandardCharsets.US_ASCII));
    static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");
    static final InetAddress LOOPBACK = ip("127.0.0.1");

    private AuthFixtures() {
    }

    static Clock clockAt(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    static Authentication authenticator(AccountKeys keys, Instant now) {
        return new Authentication(keys, StoredAccessPolicies.NONE, clockAt(now), AuthenticationSettings.defaults());
    }

    static Authentication emulatorAuthenticator(Instant now) {
        return authenticator(AccountKeys.emulator(), now);
    }

    static InetAddress ip(String literal) {
        try {
            return InetAddress.getByAddress(literal, InetAddress.getByName(literal).getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Asserts that {@code call} fails with a {@link TableServiceException} of {@code code}. */
    static void assertFailsWith(ErrorCode code, ThrowingCallable call) {
        assertThatThrownBy(call)
                .isInstanceOf(TableServiceException.class)
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((TableServiceException) e).errorCode())
                        .as("error code (message: %s)", e.getMessage())
                        .isEqualTo(code));
    }

    /** HMAC-SHA256 of {@code stringToSign} with the base64 {@code key}, base64-encoded: the tests' one signer's. */
    static String sign(String base64Key, String stringToSign) {
        return SharedKeySigning.hmac(base64Key, stringToSign);
    }

    // ------------------------------------------------------------ request surgery

    static SignedRequest withRawPath(SignedRequest r, String rawPath) {
        return new SignedRequest(r.method(), rawPath, r.query(), r.headers(), r.https(), r.clientAddress());
    }

    static SignedRequest withMethod(SignedRequest r, String method) {
        return new SignedRequest(method, r.rawPath(), r.query(), r.headers(), r.https(), r.clientAddress());
    }

    static SignedRequest withHttps(SignedRequest r, boolean https) {
        return new SignedRequest(r.method(), r.rawPath(), r.query(), r.headers(), https, r.clientAddress());
    }

    static SignedRequest withClient(SignedRequest r, InetAddress client) {
        return new SignedRequest(r.method(), r.rawPath(), r.query(), r.headers(), r.https(), client);
    }

    static SignedRequest withHeader(SignedRequest r, String name, String value) {
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.putAll(r.headers());
        if (value == null) {
            headers.remove(name);
        } else {
            headers.put(name, List.of(value));
        }
        return new SignedRequest(r.method(), r.rawPath(), r.query(), headers, r.https(), r.clientAddress());
    }

    static SignedRequest withQueryParameter(SignedRequest r, String name, String decodedValue) {
        Map<String, List<String>> query = new LinkedHashMap<>(r.query());
        if (decodedValue == null) {
            query.remove(name);
        } else {
            query.put(name, List.of(decodedValue));
        }
        return new SignedRequest(r.method(), r.rawPath(), query, r.headers(), r.https(), r.clientAddress());
    }

    static SignedRequest withAddedQueryValue(SignedRequest r, String name, String decodedValue) {
        Map<String, List<String>> query = new LinkedHashMap<>(r.query());
        List<String> values = new ArrayList<>(query.getOrDefault(name, List.of()));
        values.add(decodedValue);
        query.put(name, values);
        return new SignedRequest(r.method(), r.rawPath(), query, r.headers(), r.https(), r.clientAddress());
    }

    /** A request to {@code rawPath} carrying the SAS token {@code sas} (a raw query string). */
    static SignedRequest sasRequest(String method, String rawPath, String sas) {
        return SignedRequest.builder().method(method).rawPath(rawPath).rawQuery(sas).https(false)
                .clientAddress(LOOPBACK).build();
    }
}
