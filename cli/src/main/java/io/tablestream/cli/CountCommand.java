package io.tablestream.cli;

import io.tablestream.client.TableServiceHttp;
import io.tablestream.cli.transfer.Counter;
import io.tablestream.cli.transfer.Progress;
import io.tablestream.cli.transfer.TableScan;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "count", mixinStandardHelpOptions = true,
        description = "Prints how many entities a table holds (or a filter selects): a scan of the keys.")
final class CountCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "TABLE")
    String table;

    @Option(names = {"-f", "--filter"}, paramLabel = "EXPR", description = "An OData $filter.")
    String filter;

    @Option(names = "--split", split = ",", paramLabel = "PK", description = "PartitionKey split points, counted in parallel.")
    List<String> split = List.of();

    @Override
    public Integer call() throws Exception {
        FilterOption.check(filter);
        AtomicLong seen = new AtomicLong();
        long n;
        try (TableServiceHttp http = main.http();
             Progress progress = new Progress("count " + table, seen::get, () -> -1,
                     main.progressStyle() == Progress.Style.BAR ? Progress.Style.BAR : Progress.Style.NONE,
                     main.messages())) {
            TableScan.requireTable(http, table);
            n = new Counter(http).count(table, TableScan.rangeFilters(filter, split), seen::set);
        }
        main.out().println(n);
        return 0;
    }
}
