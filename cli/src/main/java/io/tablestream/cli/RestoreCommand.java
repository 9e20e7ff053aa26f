package io.tablestream.cli;

import io.tablestream.cli.transfer.Progress;
import io.tablestream.cli.transfer.ServerJob;
import io.tablestream.client.TableServiceHttp;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * Restores a table into a new one ({@code POST /<table>()/$restore}, a Tablestream job), as it was at
 * a past time or as it is now, and follows the job to its end; prints how many entities it copied.
 */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Restores a table into a new table, as it was at a past time (--as-of, a table with history)"
                + " or as it is now, as a job of the server (a Tablestream extension), and waits for it to finish."})
final class RestoreCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "TABLE")
    String table;

    @Option(names = "--into", required = true, paramLabel = "NEW_TABLE", description = "The new table (it must not exist).")
    String target;

    @Option(names = "--as-of", paramLabel = "TIME",
            description = "The UTC time to restore (e.g. 2026-11-24T11:00:00Z), within the table's history retention;"
                    + " without it, a consistent copy as of now.")
    String asOf;

    @Override
    public Integer call() throws Exception {
        AsOfOption.check(asOf);
        try (TableServiceHttp http = main.http()) {
            ServerJob.Status done = ServerJob.follow(http, table, "Restoring " + table + " into " + target
                    + (asOf == null ? "" : " as of " + asOf), http.restore(table, target, asOf), main.messages(),
                    main.progressStyle() != Progress.Style.NONE);
            done.requireCompleted("The restore of " + table + " into " + target);
            main.out().printf("Restored %,d entities of %s into %s%n", done.entities(), table, target);
        }
        return 0;
    }
}
