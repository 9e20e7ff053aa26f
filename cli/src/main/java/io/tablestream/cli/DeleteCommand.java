package io.tablestream.cli;

import io.tablestream.cli.transfer.Progress;
import io.tablestream.cli.transfer.ServerJob;
import io.tablestream.cli.transfer.TableScan;
import io.tablestream.client.TableServiceHttp;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * Deletes what a filter matches ({@code DELETE /<table>()?$filter=}, a Tablestream job) and follows
 * the job to its end; prints how many entities it deleted.
 */
@Command(name = "delete", mixinStandardHelpOptions = true,
        description = {"Deletes every entity of a table that matches a filter now, as a job of the server (a Tablestream"
                + " extension), and waits for it to finish. Delete Table removes a whole table; this keeps the table."})
final class DeleteCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "TABLE")
    String table;

    @Option(names = {"-f", "--filter"}, required = true, paramLabel = "EXPR",
            description = "An OData $filter: the entities to delete, e.g. \"Level eq 'debug'\".")
    String filter;

    @Override
    public Integer call() throws Exception {
        if (FilterOption.check(filter) == null) {
            throw new IllegalArgumentException("--filter is empty: say which entities to delete");
        }
        try (TableServiceHttp http = main.http()) {
            TableScan.requireTable(http, table);
            ServerJob.Status done = ServerJob.follow(http, table, "Deleting the entities of " + table + " that match "
                    + filter, http.deleteWhere(table, filter), main.messages(), main.progressStyle() != Progress.Style.NONE);
            done.requireCompleted("The deletion from " + table);
            main.out().printf("Deleted %,d entities of %s%n", done.entities(), table);
        }
        return 0;
    }
}
