package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthenticationErrors.authenticationFailed;
import static io.tablestream.protocol.auth.SasParameters.orEmpty;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The account SAS: a signature over services ({@code ss}), resource types ({@code srt}),
 * permissions, a time window and optional client address and protocol; it reaches the Table
 * service when {@code ss} includes {@code t}.
 */
final class AccountSasAuthentication {
    /** From this version account SAS sign the encryption scope {@code ses}. */
    private static final String ENCRYPTION_SCOPE_VERSION = "2020-12-06";
    private static final Pattern PERMISSIONS = Pattern.compile("^[a-z]+$");
    private static final Pattern SERVICES = Pattern.compile("^[bqtf]+$");
    private static final Pattern RESOURCE_TYPES = Pattern.compile("^[sco]+$");

    private final SasSignatures signatures;
    private final Clock clock;

    AccountSasAuthentication(SasSignatures signatures, Clock clock) {
        this.signatures = signatures;
        this.clock = clock;
    }

    Principal authenticate(SignedRequest request, String account) {
        SasParameters p = new SasParameters(request);
        // account SAS came with the version that also signs sip and spr
        String version = p.version(ServiceSasAuthentication.IP_PROTOCOL_VERSION);
        String services = p.required("ss");
        String resourceTypes = p.required("srt");
        String permissions = p.required("sp");
        if (!SERVICES.matcher(services).matches() || !RESOURCE_TYPES.matcher(resourceTypes).matches()
                || !PERMISSIONS.matcher(permissions).matches()) {
            throw authenticationFailed("The account SAS is not well formed: ss, srt or sp holds an unknown letter.");
        }
        String start = p.optional("st");
        String expiry = p.required("se");
        Instant startTime = p.time("st", start);
        Instant expiryTime = p.time("se", expiry);
        String ip = p.optional("sip");
        IpRange ipRange = p.ipRange(ip);
        String protocol = p.protocol();
        String signature = p.signature();

        List<String> fields = new ArrayList<>(List.of(account, permissions, services, resourceTypes, orEmpty(start),
                expiry, orEmpty(ip), orEmpty(protocol), version));
        if (version.compareTo(ENCRYPTION_SCOPE_VERSION) >= 0) {
            fields.add(orEmpty(p.optional("ses")));
        }
        fields.add(""); // the account SAS string-to-sign ends with a newline
        AccountKey key = signatures.verify(account, String.join("\n", fields), signature, "account");

        SasParameters.checkValidity(clock, startTime, expiryTime);
        SasParameters.checkProtocol(protocol, request);
        SasParameters.checkIp(ipRange, request);
        if (services.indexOf('t') < 0) {
            throw TableServiceException.of(ErrorCode.AUTHORIZATION_SERVICE_MISMATCH,
                    "The account SAS does not include the Table service (ss must include 't').");
        }
        return Principal.accountSas(account, resourceTypes, permissions, key.label());
    }
}
