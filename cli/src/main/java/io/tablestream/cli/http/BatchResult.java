package io.tablestream.cli.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a {@code $batch} of one change set answered: applied as a whole (202, every operation 2xx),
 * or refused, with the failing operation's status and message (Azure answers a failed change set
 * with that one response, its message prefixed by the operation's index: {@code "3:..."}).
 *
 * @param failedOperation the index of the operation that failed, -1 when unknown or none
 */
public record BatchResult(boolean applied, int status, int failedOperation, String failure) {
    private static final Pattern STATUS_LINE = Pattern.compile("(?m)^HTTP/1\\.1 (\\d{3})");
    private static final Pattern INDEX = Pattern.compile("^(\\d+):");

    public static BatchResult of(TableServiceHttp.Answer answer, int operations) {
        if (answer.status() != 202) {
            return new BatchResult(false, answer.status(), -1, answer.describe());
        }
        String body = new String(answer.body(), StandardCharsets.UTF_8);
        List<Integer> statuses = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        Matcher m = STATUS_LINE.matcher(body);
        while (m.find()) {
            statuses.add(Integer.parseInt(m.group(1)));
            starts.add(m.end());
        }
        for (int i = 0; i < statuses.size(); i++) {
            int status = statuses.get(i);
            if (status < 200 || status >= 300) {
                int from = body.indexOf("\r\n\r\n", starts.get(i));
                int to = i + 1 < starts.size() ? starts.get(i + 1) : body.length();
                String part = from < 0 || from >= to ? "" : body.substring(from + 4, to);
                int json = part.indexOf('{');
                String described = ServiceError.describe(status,
                        json < 0 ? new byte[0] : part.substring(json, part.lastIndexOf('}') + 1).getBytes(StandardCharsets.UTF_8));
                int index = -1;
                int colon = described.indexOf(": ");
                if (colon >= 0) {
                    Matcher idx = INDEX.matcher(described.substring(colon + 2));
                    if (idx.find()) {
                        index = Integer.parseInt(idx.group(1));
                    }
                }
                return new BatchResult(false, status, index, described);
            }
        }
        if (statuses.size() != operations) {
            return new BatchResult(false, 202, -1, "the batch answered " + statuses.size() + " operations of " + operations);
        }
        return new BatchResult(true, 202, -1, null);
    }
}
