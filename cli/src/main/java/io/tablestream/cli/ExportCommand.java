package io.tablestream.cli;

import io.tablestream.client.TableServiceHttp;
import io.tablestream.cli.transfer.Exporter;
import io.tablestream.cli.transfer.TransferFormat;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Writes a table's entities (or those a filter selects) to a JSON Lines or CSV file, typed so"
                + " that an import gives back exactly the same entities.",
                "Interrupted? Run the same command again: it resumes from the checkpoint <output>.progress."})
final class ExportCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "TABLE")
    String table;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
            description = "The file to write (.csv: CSV, else JSON Lines, unless --format says).")
    Path output;

    @Option(names = "--format", paramLabel = "jsonl|csv", description = "The output's format.")
    TransferFormat format;

    @Option(names = {"-f", "--filter"}, paramLabel = "EXPR", description = "An OData $filter, e.g. \"Age gt 30\".")
    String filter;

    @Option(names = "--select", paramLabel = "A,B", description = "Only these properties (the keys always).")
    String select;

    @Option(names = "--split", split = ",", paramLabel = "PK",
            description = "PartitionKey split points: each range between them is read in parallel (e.g."
                    + " --split g,n,t reads four ranges at once).")
    List<String> split = List.of();

    @Option(names = "--as-of", paramLabel = "TIME",
            description = "The table as it was at this UTC time (e.g. 2026-11-24T11:00:00Z): a consistent snapshot of a"
                    + " table with history (Tablestream's HistoryRetentionInSeconds), however it changes meanwhile.")
    String asOf;

    @Option(names = "--count",
            description = "Count the entities alongside (a scan of the keys, run concurrently), so that progress"
                    + " shows the total and the time left; the count competes with the export for the service.")
    boolean count;

    @Override
    public Integer call() throws Exception {
        TransferFormat f = format != null ? format : TransferFormat.of(output);
        FilterOption.check(filter);
        AsOfOption.check(asOf);
        try (TableServiceHttp http = main.http()) {
            long n = new Exporter(http, main.messages(), main.progressStyle(), main.checkpointInterval())
                    .run(new Exporter.Request(table, filter, select, split, output, f, count, asOf));
            main.messages().printf("Exported %,d entities of %s to %s%n", n, table, output);
        }
        return 0;
    }
}
