package io.tablestream.protocol.xml;

import static io.tablestream.protocol.xml.XmlElement.invalidDocument;
import static io.tablestream.protocol.xml.XmlElement.invalidValue;

import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TablePermission;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code SignedIdentifiers} document of Get and Set Table ACL: a table's stored access
 * policies.
 *
 * <pre>{@code
 * <SignedIdentifiers>
 *   <SignedIdentifier>
 *     <Id>policy1</Id>
 *     <AccessPolicy><Start>…</Start><Expiry>…</Expiry><Permission>raud</Permission></AccessPolicy>
 *   </SignedIdentifier>
 * </SignedIdentifiers>
 * }</pre>
 *
 * <p>Reading accepts the children of each element in any order and ignores elements it does not
 * know. Writing produces the service's exact form: byte order mark, declaration, no white space,
 * dates with seven fractional digits, {@code <SignedIdentifiers />} for no policies.
 */
public final class SignedIdentifiersXml {
    private static final String ROOT = "SignedIdentifiers";
    private static final String IDENTIFIER = "SignedIdentifier";

    private SignedIdentifiersXml() {
    }

    /** {@link #parse(byte[])} of a stream, read up to the size bound. */
    public static List<AccessPolicy> parse(InputStream body) {
        return parse(SecureXmlReader.readBounded(body));
    }

    /**
     * The policies of a Set Table ACL body, in document order. An empty body sets no policies.
     *
     * @throws TableServiceException {@code InvalidXmlDocument} for malformed XML, a DTD, a missing
     *         or repeated element, more than {@value AccessPolicy#MAX_PER_TABLE} policies, a
     *         permission letter outside {@code raud} or given twice, or an id used twice;
     *         {@code InvalidXmlNodeValue} for an id of more than {@value AccessPolicy#MAX_ID_LENGTH}
     *         characters or a date that is not ISO 8601; {@code RequestBodyTooLarge} past 64 KiB
     */
    public static List<AccessPolicy> parse(byte[] body) {
        if (SecureXmlReader.isBlank(body)) {
            return List.of();
        }
        XmlElement root = SecureXmlReader.parse(body);
        if (!root.name().equals(ROOT)) {
            throw invalidDocument("the root element must be " + ROOT + ", not " + root.name() + ".");
        }
        List<XmlElement> identifiers = root.all(IDENTIFIER);
        if (identifiers.size() > AccessPolicy.MAX_PER_TABLE) {
            throw invalidDocument("at most " + AccessPolicy.MAX_PER_TABLE + " signed identifiers are allowed, not "
                    + identifiers.size() + ".");
        }
        List<AccessPolicy> policies = new ArrayList<>(identifiers.size());
        Set<String> ids = new HashSet<>();
        for (XmlElement si : identifiers) {
            AccessPolicy p = readPolicy(si);
            if (!ids.add(p.id())) {
                throw invalidDocument("the signed identifier '" + p.id() + "' is given more than once.");
            }
            policies.add(p);
        }
        return List.copyOf(policies);
    }

    private static AccessPolicy readPolicy(XmlElement si) {
        String id = si.required("Id").value();
        if (id.isEmpty() || id.length() > AccessPolicy.MAX_ID_LENGTH) {
            throw invalidValue("SignedIdentifier/Id", id,
                    "a signed identifier has 1 to " + AccessPolicy.MAX_ID_LENGTH + " characters");
        }
        EdmDateTime start = null;
        EdmDateTime expiry = null;
        Set<TablePermission> permissions = Set.of();
        XmlElement policy = si.optional("AccessPolicy");
        if (policy != null) {
            XmlElement s = policy.optional("Start");
            if (s != null) {
                start = XmlValues.dateTime(s, "AccessPolicy/Start").orElse(null);
            }
            XmlElement e = policy.optional("Expiry");
            if (e != null) {
                expiry = XmlValues.dateTime(e, "AccessPolicy/Expiry").orElse(null);
            }
            XmlElement perm = policy.optional("Permission");
            if (perm != null) {
                try {
                    permissions = TablePermission.parse(perm.value().strip());
                } catch (IllegalArgumentException ex) {
                    throw invalidDocument(ex.getMessage() + ".");
                }
            }
        }
        return AccessPolicy.of(id, start, expiry, permissions);
    }

    /** The Get Table ACL body for {@code policies}. */
    public static byte[] write(List<AccessPolicy> policies) {
        XmlOutput out = new XmlOutput();
        if (policies.isEmpty()) {
            return out.empty(ROOT).toBytes();
        }
        out.start(ROOT);
        for (AccessPolicy p : policies) {
            out.start(IDENTIFIER).leaf("Id", p.id());
            if (p.start() == null && p.expiry() == null && p.permissions().isEmpty()) {
                out.empty("AccessPolicy");
            } else {
                out.start("AccessPolicy");
                if (p.start() != null) {
                    out.leaf("Start", p.start().toIso());
                }
                if (p.expiry() != null) {
                    out.leaf("Expiry", p.expiry().toIso());
                }
                if (!p.permissions().isEmpty()) {
                    out.leaf("Permission", p.permissionSymbols());
                }
                out.end("AccessPolicy");
            }
            out.end(IDENTIFIER);
        }
        return out.end(ROOT).toBytes();
    }
}
