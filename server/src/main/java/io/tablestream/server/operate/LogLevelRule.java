package io.tablestream.server.operate;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;
import org.slf4j.helpers.MessageFormatter;

/**
 * Logs one known message of a library at the level it deserves instead of the one the library
 * chose: a message of {@code logger} whose pattern contains {@code message} (Kafka's loggers put the
 * client's or broker's name before it, e.g. {@code [Producer clientId=...] }) (and, if set, whose
 * text contains {@code contains}, and which carries an exception of the simple class name
 * {@code exception} in its causes), logged above {@code level},
 * is logged again at {@code level} as one line (that exception's own message instead of a stack
 * trace), and not at its original level. Anything else passes untouched. In {@code logback.xml}:
 *
 * <pre>{@code
 * <turboFilter class="io.tablestream.server.operate.LogLevelRule">
 *   <logger>org.apache.kafka.controller.ReplicationControlManager</logger>
 *   <message>processExpiredBrokerHeartbeat</message>
 *   <level>INFO</level>
 * </turboFilter>
 * }</pre>
 *
 * Several rules go in one {@link LogLevelRules} (each as a {@code <rule>} element), so that logback
 * asks one turbo filter, not one per rule, about every logging call. Each rule is written down with
 * its reason in docs/failures.md ("The log").
 */
public final class LogLevelRule extends TurboFilter {
    private static final String FQCN = LogLevelRule.class.getName();

    private String logger;
    private String message;
    private String exception;
    private String contains;
    private Level level = Level.INFO;

    public void setLogger(String logger) {
        this.logger = logger;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public void setException(String exception) {
        this.exception = exception;
    }

    public void setContains(String contains) {
        this.contains = contains;
    }

    public void setLevel(String level) {
        this.level = Level.toLevel(level, Level.INFO);
    }

    @Override
    public void start() {
        if (logger == null || message == null) {
            addError("A LogLevelRule needs a logger and a message");
            return;
        }
        super.start();
    }

    @Override
    public FilterReply decide(Marker marker, Logger log, Level logged, String format, Object[] params, Throwable t) {
        if (!isStarted() || format == null || logged == null || logged.toInt() <= level.toInt()
                || !log.getName().equals(logger) || !format.contains(message)) {
            return FilterReply.NEUTRAL;
        }
        Throwable thrown = t != null ? t : lastThrowable(params);
        if (exception != null) {
            thrown = cause(thrown, exception);
            if (thrown == null) {
                return FilterReply.NEUTRAL;
            }
        }
        String text = MessageFormatter.arrayFormat(format, params).getMessage();
        if (contains != null && !text.contains(contains)) {
            return FilterReply.NEUTRAL;
        }
        if (thrown != null) {
            text += " (" + thrown + ")";
        }
        // logged again at the lower level, which this rule lets through
        log.log(marker, FQCN, Level.toLocationAwareLoggerInteger(level), text, null, null);
        return FilterReply.DENY;
    }

    private static Throwable lastThrowable(Object[] params) {
        return params != null && params.length > 0 && params[params.length - 1] instanceof Throwable t ? t : null;
    }

    /** The exception of simple class name {@code simpleName} among {@code thrown} and its causes, or null. */
    private static Throwable cause(Throwable thrown, String simpleName) {
        for (Throwable c = thrown; c != null; c = c.getCause()) {
            if (c.getClass().getSimpleName().equals(simpleName)) {
                return c;
            }
        }
        return null;
    }
}
