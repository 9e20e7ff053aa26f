package io.tablestream.server.operate;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Marker;

/**
 * Several {@link LogLevelRule}s as one turbo filter. Logback asks every turbo filter about every
 * logging call, {@code isDebugEnabled()} included (Jetty asks that dozens of times per request); with
 * more than one filter it copies its list and loops over it on each call, with one it calls that one.
 * A level check (no message yet) is answered here at once. In {@code logback.xml}:
 *
 * <pre>{@code
 * <turboFilter class="io.tablestream.server.operate.LogLevelRules">
 *   <rule>
 *     <logger>org.apache.kafka.controller.ReplicationControlManager</logger>
 *     <message>processExpiredBrokerHeartbeat</message>
 *   </rule>
 *   ...
 * </turboFilter>
 * }</pre>
 */
public final class LogLevelRules extends TurboFilter {
    private final List<LogLevelRule> rules = new ArrayList<>();
    private LogLevelRule[] started = new LogLevelRule[0];

    /** Adds a rule (started by logback once its properties are set). */
    public void addRule(LogLevelRule rule) {
        rules.add(rule);
    }

    /** Starts with the rules that started; one that did not (it said why) is left out, as a lone one would be. */
    @Override
    public void start() {
        started = rules.stream().filter(LogLevelRule::isStarted).toArray(LogLevelRule[]::new);
        super.start();
    }

    @Override
    public FilterReply decide(Marker marker, Logger log, Level logged, String format, Object[] params, Throwable t) {
        if (format == null || !isStarted()) {
            return FilterReply.NEUTRAL; // a level check: no rule matches a call without a message
        }
        for (LogLevelRule rule : started) {
            FilterReply reply = rule.decide(marker, log, logged, format, params, t);
            if (reply != FilterReply.NEUTRAL) {
                return reply;
            }
        }
        return FilterReply.NEUTRAL;
    }
}
