package io.tablestream.cli;

import io.tablestream.client.ChangeSet;
import io.tablestream.client.TableServiceHttp;
import io.tablestream.cli.transfer.Importer;
import io.tablestream.cli.transfer.TransferFormat;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Writes the entities of a JSON Lines or CSV file (as export writes them) into a table,"
                + " creating it if needed: grouped by PartitionKey (the file may be in any order) into batches of 100,"
                + " several in flight.",
                "Interrupted? Run the same command again: it resumes from the checkpoint"
                        + " <input>.import-<TABLE>.progress."})
final class ImportCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "TABLE")
    String table;

    @Option(names = {"-i", "--input"}, required = true, paramLabel = "FILE",
            description = "The file to read (.csv: CSV, else JSON Lines, unless --format says).")
    Path input;

    @Option(names = "--format", paramLabel = "jsonl|csv", description = "The input's format.")
    TransferFormat format;

    @Option(names = "--mode", paramLabel = "replace|merge", defaultValue = "replace",
            description = "replace: each entity becomes exactly what the file holds (Insert Or Replace);"
                    + " merge: its properties are merged into an existing entity (Insert Or Merge). Default: ${DEFAULT-VALUE}.")
    ChangeSet.Mode mode;

    @Option(names = {"-p", "--parallel"}, paramLabel = "N", defaultValue = "8",
            description = "Batches in flight at once (default ${DEFAULT-VALUE}).")
    int parallel;

    @Option(names = "--no-create", description = "Do not create the table when it does not exist.")
    boolean noCreate;

    @Option(names = "--group-memory", paramLabel = "MiB", defaultValue = "" + Importer.DEFAULT_GROUP_MEBIBYTES,
            description = "Memory for entities waiting for more of their PartitionKey to fill a batch (a file not in key"
                    + " order); beyond it the fullest groups are sent as they are. Default: ${DEFAULT-VALUE} MiB.")
    int groupMemory;

    @Override
    public Integer call() throws Exception {
        if (parallel < 1) {
            throw new IllegalArgumentException("--parallel must be at least 1");
        }
        if (groupMemory < 1) {
            throw new IllegalArgumentException("--group-memory must be at least 1 (MiB)");
        }
        TransferFormat f = format != null ? format : TransferFormat.of(input);
        try (TableServiceHttp http = main.http()) {
            long n = new Importer(http, main.messages(), main.progressStyle(), main.checkpointInterval())
                    .run(new Importer.Request(table, input, f, mode, parallel, !noCreate, groupMemory * 1024L * 1024));
            main.messages().printf("Imported %,d entities from %s into %s%n", n, input, table);
        }
        return 0;
    }
}
