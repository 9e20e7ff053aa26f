package io.tablestream.ingest.http;

import io.javalin.http.Context;
import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.ServicePropertiesUpdate;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.xml.ServicePropertiesXml;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Set Table Service Properties: the groups of settings the body carries replace the account's
 * stored ones (the others are kept), through the log as an account command. Answers 202 Accepted,
 * as the service does, once this instance's registry view shows the new settings, so a Get right
 * after reads them back (the service itself may take up to 30 seconds).
 */
record ServicePropertiesWriteHandler(CommandSubmitter submitter, TableRegistry registry, RegistryWait registryWait,
                                     Executor responders) {
    void set(RequestContext request, Context http) {
        request.caller().authorize(Operation.SET_SERVICE_PROPERTIES, null, null, null);
        ServicePropertiesUpdate update = ServicePropertiesXml.parse(http.bodyInputStream());
        String account = request.account();
        AccountCommand command = AccountCommand.setServiceProperties(
                submitter.header(account, request.caller().principal(), true), update);
        http.future(() -> submitter.submit(command)
                .thenCompose(outcome -> visible(account, update, outcome))
                .thenAcceptAsync(outcome -> {
                    ResponseHeaders.standard(http, request);
                    http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
                    http.status(202);
                }, responders));
    }

    /** The view shows every group the update carries (merging it again would change nothing). */
    private CompletableFuture<Outcome> visible(String account, ServicePropertiesUpdate update, Outcome outcome) {
        return registryWait.until(() -> {
            ServiceProperties seen = registry.serviceProperties(account);
            return ServiceProperties.merge(seen, update).equals(seen);
        }, outcome);
    }
}
