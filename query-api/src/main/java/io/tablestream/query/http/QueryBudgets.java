package io.tablestream.query.http;

/**
 * How much one read may do before it answers with a continuation, so that no request does
 * unbounded work: a sparse filter or a huge account ends its page early (possibly empty), as the
 * service's own pages may, and the client asks for the next one.
 *
 * @param rowBudget rows one Query Entities page examines at most
 * @param pageBytes bytes of matching entities one Query Entities page holds, about (at least one entity)
 * @param tableScanBudget registry rows one Query Tables page examines at most
 */
public record QueryBudgets(int rowBudget, long pageBytes, int tableScanBudget) {
    /** 50,000 rows, 4 MiB and 10,000 tables per page. */
    public static final QueryBudgets DEFAULTS = new QueryBudgets(50_000, 4L * 1024 * 1024, 10_000);

    public QueryBudgets {
        if (rowBudget < 1 || pageBytes < 1 || tableScanBudget < 1) {
            throw new IllegalArgumentException("a page must be allowed at least one row, byte and table, or paging"
                    + " never advances");
        }
    }
}
