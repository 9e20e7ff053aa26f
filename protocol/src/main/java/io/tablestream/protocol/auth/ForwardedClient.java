package io.tablestream.protocol.auth;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/**
 * What an instance that forwards a request to another one vouches for: the address the client
 * connected from and whether it came over https — the two facts a SAS may restrict ({@code sip},
 * {@code spr}) that the receiving instance cannot see itself, since the request reaches it from
 * the forwarding instance. The claim travels in {@code x-tablestream-forwarded-client} as
 * {@code <address>;<http|https>;<signature>}, the signature an HMAC-SHA256 with a key of the
 * account the request addresses over the claim and the request (method, raw path, raw query, the
 * signed date), so only a holder of the account's key can make one and it fits no other request.
 * Without the header, the connection's own peer address and scheme count, as for any request.
 */
record ForwardedClient(InetAddress address, boolean https) {
    /** The header carrying the claim. */
    static final String HEADER = "x-tablestream-forwarded-client";

    /** The claim for {@code request} (as the forwarding instance received it), signed with {@code key}. */
    static String attest(SignedRequest request, AccountKey key) {
        String address = request.clientAddress() == null ? "" : request.clientAddress().getHostAddress();
        String scheme = request.https() ? "https" : "http";
        return address + ";" + scheme + ";" + key.sign(stringToSign(address, scheme, request));
    }

    /**
     * The client a forwarded request vouches for, when it carries the header; 403 AuthorizationFailure
     * when the header is malformed or its signature is not made with a key of {@code keys}.
     */
    static Optional<ForwardedClient> verify(SignedRequest request, List<AccountKey> keys) {
        List<String> values = request.headers().getOrDefault(HEADER, List.of());
        if (values.isEmpty()) {
            return Optional.empty();
        }
        String[] parts = values.size() == 1 ? values.get(0).split(";", -1) : new String[0];
        if (parts.length != 3 || !(parts[1].equals("http") || parts[1].equals("https"))) {
            throw refused();
        }
        String expected = stringToSign(parts[0], parts[1], request);
        for (AccountKey key : keys) {
            if (key.signed(expected, parts[2])) {
                return Optional.of(new ForwardedClient(literalAddress(parts[0]), parts[1].equals("https")));
            }
        }
        throw refused();
    }

    /** The request as the client sent it, with the vouched-for address and scheme. */
    SignedRequest applyTo(SignedRequest request) {
        return new SignedRequest(request.method(), request.rawPath(), request.query(), request.headers(), https, address);
    }

    private static String stringToSign(String address, String scheme, SignedRequest request) {
        String date = request.header("x-ms-date").orElse(request.header("Date").orElse(""));
        return "TablestreamForwardedClient\n" + address + "\n" + scheme + "\n" + request.method() + "\n"
                + request.rawPath() + "\n" + rawQuery(request) + "\n" + date;
    }

    /** The query as a canonical text: names and values in arrival order (decoded), so re-encoding cannot change it. */
    private static String rawQuery(SignedRequest request) {
        StringBuilder sb = new StringBuilder();
        request.query().forEach((name, values) -> {
            for (String v : values) {
                sb.append(name).append('=').append(v).append('\n');
            }
        });
        return sb.toString();
    }

    private static InetAddress literalAddress(String text) {
        if (text.isEmpty()) {
            return null;
        }
        if (!text.matches("[0-9A-Fa-f:.]+")) {
            throw refused(); // a literal address only: never a name to look up
        }
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw refused();
        }
    }

    private static TableServiceException refused() {
        return TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                "The forwarded request's client claim is not valid for the account it addresses.");
    }
}
