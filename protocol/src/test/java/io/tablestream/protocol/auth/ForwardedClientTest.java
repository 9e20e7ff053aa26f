package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthFixtures.NOW;
import static io.tablestream.protocol.auth.AuthFixtures.OTHER_KEY;
import static io.tablestream.protocol.auth.AuthFixtures.assertFailsWith;
import static io.tablestream.protocol.auth.AuthFixtures.emulatorAuthenticator;
import static io.tablestream.protocol.auth.AuthFixtures.ip;
import static io.tablestream.protocol.auth.AuthFixtures.withClient;
import static io.tablestream.protocol.auth.AuthFixtures.withHeader;
import static io.tablestream.protocol.auth.AuthFixtures.withHttps;
import static io.tablestream.protocol.auth.AuthFixtures.withQueryParameter;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.sas.TableSasIpRange;
import com.azure.data.tables.sas.TableSasProtocol;
import io.tablestream.core.error.ErrorCode;
import org.junit.jupiter.api.Test;

/**
 * An instance forwarding a request vouches for the client's address and scheme with the account's
 * key; the receiving instance authenticates the request as the client sent it — and as strictly:
 * a claim without a valid signature, or for another request, is refused.
 */
class ForwardedClientTest {
    private final Authentication here = emulatorAuthenticator(NOW);
    private final Authentication owner = emulatorAuthenticator(NOW);

    /** A read under a SAS limited to 10.0.0.1-10.0.0.9 and https, as the client sent it to the first instance. */
    private SignedRequest clientRequest() {
        String sas = ServiceSasTest.SDK.generateSas(ServiceSasTest.values("r")
                .setSasIpRange(TableSasIpRange.parse("10.0.0.1-10.0.0.9")).setProtocol(TableSasProtocol.HTTPS_ONLY));
        return withHttps(withClient(ServiceSasTest.request(sas), ip("10.0.0.5")), true);
    }

    /** The same request as it reaches the owner: from the forwarding instance, over http, with the claim. */
    private SignedRequest forwarded(SignedRequest client, String claim) {
        return withHeader(withHttps(withClient(client, ip("192.168.1.20")), false), ForwardedClient.HEADER, claim);
    }

    @Test
    void theOwnerSeesTheClientAForwardingInstanceVouchedFor() {
        SignedRequest client = clientRequest();
        assertThat(here.authenticate(client).kind()).isEqualTo(Principal.Kind.SERVICE_SAS);

        SignedRequest atOwner = forwarded(client, here.attestForwarding(client, AuthFixtures.ACCOUNT));

        assertThat(owner.authenticate(atOwner).kind()).isEqualTo(Principal.Kind.SERVICE_SAS);
    }

    @Test
    void withoutAClaimTheForwardingHopIsTheClientAndTheSasRefusesIt() {
        SignedRequest atOwner = withHttps(withClient(clientRequest(), ip("192.168.1.20")), false);

        assertFailsWith(ErrorCode.AUTHORIZATION_PROTOCOL_MISMATCH, () -> owner.authenticate(atOwner));
    }

    @Test
    void aClaimMadeUpWithoutTheKeyIsRefused() {
        SignedRequest client = clientRequest();
        String forged = "10.0.0.5;https;" + AuthFixtures.sign(OTHER_KEY, "anything");

        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> owner.authenticate(forwarded(client, forged)));
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> owner.authenticate(forwarded(client, "10.0.0.5;https")));
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> owner.authenticate(forwarded(client, "x;y;z")));
    }

    @Test
    void aClaimFitsOnlyTheRequestItWasMadeFor() {
        SignedRequest client = clientRequest();
        String claim = here.attestForwarding(client, AuthFixtures.ACCOUNT);
        SignedRequest other = withQueryParameter(client, "$filter", "PartitionKey eq 'other'");

        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> owner.authenticate(forwarded(other, claim)));
        String otherAddress = claim.replace("10.0.0.5", "10.0.0.6");
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> owner.authenticate(forwarded(client, otherAddress)));
    }
}
