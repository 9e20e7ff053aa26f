package io.tablestream.client;

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
    private static final String STATUS_PREFIX = "HTTP/1.1 ";
    private static final Pattern INDEX = Pattern.compile("^(\\d+):");

    private static int nextStatusLine(String body, int from) {
        int at = body.indexOf("\n" + STATUS_PREFIX, from);
        return at < 0 ? -1 : at + 1;
    }

    public static BatchResult of(TableServiceHttp.Answer answer, int operations) {
        if (answer.status() != 202) {
            return new BatchResult(false, answer.status(), -1, answer.describe());
        }
        String body = new String(answer.body(), StandardCharsets.UTF_8);
        List<Integer> statuses = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        // each operation's answer starts with its status line, at the start of a line
        for (int at = body.startsWith(STATUS_PREFIX) ? 0 : nextStatusLine(body, 0); at >= 0; at = nextStatusLine(body, at + 1)) {
            int end = at + STATUS_PREFIX.length() + 3;
            if (end <= body.length()) {
                try {
                    statuses.add(Integer.parseInt(body, at + STATUS_PREFIX.length(), end, 10));
                    starts.add(end);
                } catch (NumberFormatException e) {
                    // not a status line after all
                }
            }
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
