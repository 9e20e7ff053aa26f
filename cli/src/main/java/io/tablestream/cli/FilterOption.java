package io.tablestream.cli;

import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.Filter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code --filter} checked before anything is sent, with the service's own parser: a typo is
 * reported at its position in the text the user typed, with the text and a caret under the spot.
 */
final class FilterOption {
    private static final Pattern POSITION = Pattern.compile("at position (\\d+) of \\$filter");

    private FilterOption() {
    }

    /** {@code filter} itself (null when absent); IllegalArgumentException in words when it is not a filter. */
    static String check(String filter) {
        if (filter == null || filter.isBlank()) {
            return null;
        }
        try {
            Filter.parse(filter);
            return filter;
        } catch (TableServiceException e) {
            StringBuilder message = new StringBuilder("--filter is not a valid filter: ").append(e.getMessage());
            Matcher at = POSITION.matcher(e.getMessage());
            if (at.find() && filter.indexOf('\n') < 0) {
                int position = Math.min(Integer.parseInt(at.group(1)), filter.length());
                message.append(System.lineSeparator()).append("  ").append(filter).append(System.lineSeparator())
                        .append("  ").append(" ".repeat(position)).append('^');
            }
            throw new IllegalArgumentException(message.toString());
        }
    }
}
