package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthenticationErrors.authenticationFailed;
import static io.tablestream.protocol.auth.SasParameters.orEmpty;

import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TablePermission;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The service SAS of the Table service: a signature over one table's permissions ({@code raud}),
 * time window, key range ({@code spk/srk/epk/erk}), optional client address and protocol, or over
 * a stored access policy ({@code si}) that supplies what the signature leaves out.
 */
final class ServiceSasAuthentication {
    /** First version with table SAS. */
    private static final String MIN_VERSION = "2012-02-12";
    /** From this version the canonicalized resource of a service SAS names the service. */
    private static final String SERVICE_PREFIX_VERSION = "2015-02-21";
    /** From this version SAS sign {@code sip} and {@code spr}. */
    static final String IP_PROTOCOL_VERSION = "2015-04-05";

    private final SasSignatures signatures;
    private final StoredAccessPolicies policies;
    private final Clock clock;

    ServiceSasAuthentication(SasSignatures signatures, StoredAccessPolicies policies, Clock clock) {
        this.signatures = signatures;
        this.policies = policies;
        this.clock = clock;
    }

    Principal authenticate(SignedRequest request, String account) {
        SasParameters p = new SasParameters(request);
        String version = p.version(MIN_VERSION);
        String tableName = p.required("tn");
        if (!TableName.isValid(tableName)) {
            throw authenticationFailed("The shared access signature's table name (tn) is not a valid table name.");
        }
        TableName table = TableName.of(tableName);
        String permissions = p.optional("sp");
        if (permissions != null && !isTablePermissions(permissions)) {
            throw authenticationFailed("The shared access signature's permissions (sp) must be letters of 'raud'.");
        }
        String start = p.optional("st");
        String expiry = p.optional("se");
        Instant startTime = p.time("st", start);
        Instant expiryTime = p.time("se", expiry);
        String identifier = p.optional("si");
        String ip = p.optional("sip");
        IpRange ipRange = p.ipRange(ip);
        String protocol = p.protocol();
        String startPk = p.optional("spk");
        String startRk = p.optional("srk");
        String endPk = p.optional("epk");
        String endRk = p.optional("erk");
        if ((startRk != null && startPk == null) || (endRk != null && endPk == null)) {
            throw authenticationFailed("The shared access signature is not well formed: a RowKey bound (srk, erk)"
                    + " needs its PartitionKey bound (spk, epk).");
        }
        String signature = p.signature();

        String resource = version.compareTo(SERVICE_PREFIX_VERSION) >= 0
                ? "/table/" + account + "/" + table.key()
                : "/" + account + "/" + table.key();
        List<String> fields = new ArrayList<>(List.of(orEmpty(permissions), orEmpty(start), orEmpty(expiry), resource,
                orEmpty(identifier)));
        if (version.compareTo(IP_PROTOCOL_VERSION) >= 0) {
            fields.add(orEmpty(ip));
            fields.add(orEmpty(protocol));
        }
        fields.addAll(List.of(version, orEmpty(startPk), orEmpty(startRk), orEmpty(endPk), orEmpty(endRk)));
        AccountKey key = signatures.verify(account, String.join("\n", fields), signature, "service");

        if (identifier != null) {
            AccessPolicy policy = policies.find(account, table, identifier).orElseThrow(() -> authenticationFailed(
                    "The table has no stored access policy with the signed identifier (si) of the shared access signature."));
            if ((start != null && policy.start() != null) || (expiry != null && policy.expiry() != null)
                    || (permissions != null && !policy.permissions().isEmpty())) {
                throw authenticationFailed("A start, expiry or permission is given both by the shared access"
                        + " signature and by its stored access policy; give each in one place only.");
            }
            startTime = startTime != null ? startTime : instantOrNull(policy.start());
            expiryTime = expiryTime != null ? expiryTime : instantOrNull(policy.expiry());
            permissions = permissions != null ? permissions
                    : policy.permissions().isEmpty() ? null : policy.permissionSymbols();
        }
        if (expiryTime == null) {
            throw authenticationFailed("The shared access signature has no expiry (se), nor has its stored access policy.");
        }
        if (permissions == null) {
            throw authenticationFailed("The shared access signature has no permissions (sp), nor has its stored access policy.");
        }
        SasParameters.checkValidity(clock, startTime, expiryTime);
        SasParameters.checkProtocol(protocol, request);
        SasParameters.checkIp(ipRange, request);
        return Principal.serviceSas(account, table, permissions,
                new TableAccessRange(startPk, startRk, endPk, endRk), identifier, key.label());
    }

    private static boolean isTablePermissions(String letters) {
        try {
            TablePermission.parse(letters);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static Instant instantOrNull(EdmDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
