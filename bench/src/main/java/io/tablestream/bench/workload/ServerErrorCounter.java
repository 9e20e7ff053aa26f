package io.tablestream.bench.workload;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;

/**
 * Counts every attempt the SDK makes that ends in a server error (5xx, 429) or a transport
 * failure. It sits after the SDK's retry policy, so it sees the attempts a retry hides: a run whose
 * answers were right but needed retries says so.
 */
final class ServerErrorCounter implements HttpPipelinePolicy {
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong serverErrors = new AtomicLong();
    private final AtomicLong transportErrors = new AtomicLong();

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        attempts.incrementAndGet();
        return next.process().doOnNext(this::count).doOnError(e -> transportErrors.incrementAndGet());
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
        attempts.incrementAndGet();
        try {
            HttpResponse response = next.processSync();
            count(response);
            return response;
        } catch (RuntimeException e) {
            transportErrors.incrementAndGet();
            throw e;
        }
    }

    private void count(HttpResponse response) {
        int status = response.getStatusCode();
        if (status >= 500 || status == 429) {
            serverErrors.incrementAndGet();
        }
    }

    long attempts() {
        return attempts.get();
    }

    long serverErrors() {
        return serverErrors.get();
    }

    long transportErrors() {
        return transportErrors.get();
    }
}
