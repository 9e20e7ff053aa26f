package io.tablestream.server.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Makes a failed test that ran {@link ServerProcess} children diagnosable from the build's own
 * output: the failure gets, as a suppressed exception, the path of each child's log (kept under
 * {@code target/server-processes}) and the telling lines of its last start (warnings, errors,
 * start-up and readiness steps), so a failure seen only in a CI log still says what the server did.
 * The children counted are those started since the test (or, for a class that starts them once,
 * the class) began.
 */
public final class ServerProcessLogs implements BeforeAllCallback, BeforeEachCallback, TestExecutionExceptionHandler,
        LifecycleMethodExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ServerProcessLogs.class);
    private static final String MARK = "mark";
    /** Lines worth reading first in a post-mortem. */
    private static final Pattern TELLING = Pattern.compile("^==== start| WARN | ERROR |Exception|serving the Table"
            + "|readable|REBALANCING|RUNNING|Warm-up");
    private static final int LINES_PER_CHILD = 40;

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NAMESPACE).put(MARK, ServerProcess.startedCount());
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NAMESPACE).put(MARK, ServerProcess.startedCount());
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        handleTestExecutionException(context, failure); // e.g. a cluster started once for the class
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        handleTestExecutionException(context, failure);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        Integer mark = context.getStore(NAMESPACE).get(MARK, Integer.class);
        if (mark != null && context.getParent().isPresent()) {
            // a class that starts its children once marks before its tests do
            Integer classMark = context.getParent().get().getStore(NAMESPACE).get(MARK, Integer.class);
            mark = classMark != null ? Math.min(mark, classMark) : mark;
        }
        List<ServerProcess> children = ServerProcess.startedSince(mark == null ? 0 : mark);
        if (!children.isEmpty()) {
            failure.addSuppressed(new Report(report(children)));
        }
        throw failure;
    }

    static String report(List<ServerProcess> children) {
        StringBuilder sb = new StringBuilder("The server processes of this test, their logs kept:");
        for (ServerProcess child : children) {
            sb.append("\n--- pid ").append(child.pid()).append(" (").append(child.state())
                    .append(child.endedUnexpectedly() ? ", ended without the test ending it" : "").append("), log ")
                    .append(child.logFile());
            for (String line : tellingLines(child)) {
                sb.append("\n  ").append(line.length() > 300 ? line.substring(0, 300) + "…" : line);
            }
        }
        return sb.toString();
    }

    /** The telling lines of the child's log, the last {@link #LINES_PER_CHILD} of them. */
    private static List<String> tellingLines(ServerProcess child) {
        List<String> found = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(child.logFile(), StandardCharsets.UTF_8)) {
                if (TELLING.matcher(line).find() && !line.startsWith("\tat ") && !line.contains("NetworkClient")) {
                    found.add(line);
                }
            }
        } catch (IOException e) {
            return List.of("(its log cannot be read: " + e + ")");
        }
        return found.subList(Math.max(0, found.size() - LINES_PER_CHILD), found.size());
    }

    /** The report, carried as a suppressed exception of the failure (no stack trace of its own). */
    static final class Report extends RuntimeException {
        Report(String message) {
            super(message, null, false, false);
        }
    }
}
