package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.protocol.xml.ServicePropertiesXml;
import io.tablestream.protocol.xml.ServiceStatsXml;
import io.tablestream.protocol.xml.SignedIdentifiersXml;

/**
 * The reads answered from the table registry every instance holds, not from a partition's stores:
 * Get Table ACL, Get Table Service Properties, and Get Table Service Stats (served on the secondary
 * location, which reads the primary's own stores).
 */
record RegistryReadHandlers(TableRegistry registry, TableLookup tables) {
    /** The content type of the ACL, service-properties and stats documents. */
    private static final String XML = "application/xml";

    /** Get Table ACL: the table's stored access policies, as the SignedIdentifiers document. */
    void tableAcl(RequestContext request, Context http) {
        String raw = ((ResourcePath.EntityCollection) request.resource()).table();
        if (!TableName.isValid(raw)) {
            throw TableServiceException.of(ErrorCode.TABLE_NOT_FOUND, "The table specified does not exist.");
        }
        request.caller().authorize(Operation.GET_TABLE_ACL, raw, null, null);
        TableRecord table = tables.require(request.account(), raw);
        ResponseHeaders.standard(http, request);
        http.contentType(XML);
        http.result(SignedIdentifiersXml.write(table.accessPolicies()));
    }

    /** Get Table Service Properties: the account's properties, the defaults when it never set any. */
    void serviceProperties(RequestContext request, Context http) {
        request.caller().authorize(Operation.GET_SERVICE_PROPERTIES, null, null, null);
        byte[] body = ServicePropertiesXml.write(registry.serviceProperties(request.account()));
        ResponseHeaders.standard(http, request);
        http.contentType(XML);
        http.result(body);
    }

    /**
     * Get Table Service Stats (served on the secondary location only): the secondary location reads
     * the primary's own stores, so replication is live and every write answered before this
     * request is readable there.
     */
    void serviceStats(RequestContext request, Context http) {
        request.caller().authorize(Operation.GET_SERVICE_STATS, null, null, null);
        ResponseHeaders.standard(http, request);
        http.contentType(XML);
        http.result(ServiceStatsXml.write(ServiceStatsXml.Status.LIVE, request.receivedAt()));
    }
}
