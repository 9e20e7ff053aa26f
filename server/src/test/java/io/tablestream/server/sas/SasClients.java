package io.tablestream.server.sas;

import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableTransactionFailedException;
import io.tablestream.server.TablestreamServerExtension.RunningServer;

/** SDK clients that authenticate with a shared access signature, and the outcome of a call as text. */
final class SasClients {
    static final String OK = "ok";

    private SasClients() {
    }

    static TableClient tableClient(RunningServer server, String tableName, String sas) {
        return new TableClientBuilder().endpoint(server.endpoint()).tableName(tableName).sasToken(sas).buildClient();
    }

    static TableServiceClient serviceClient(RunningServer server, String sas) {
        return new TableServiceClientBuilder().endpoint(server.endpoint()).sasToken(sas).buildClient();
    }

    /**
     * "ok", or the HTTP status and {@code x-ms-error-code} the call failed with, e.g. "403
     * AuthorizationFailure"; for a failed entity group transaction "batch" and the error code of the
     * failed operation (the SDK reports it without the response).
     */
    static String outcome(Runnable call) {
        try {
            call.run();
            return OK;
        } catch (TableTransactionFailedException e) {
            return "batch " + e.getValue().getErrorCode();
        } catch (HttpResponseException e) {
            return e.getResponse().getStatusCode() + " " + e.getResponse().getHeaderValue("x-ms-error-code");
        }
    }
}
