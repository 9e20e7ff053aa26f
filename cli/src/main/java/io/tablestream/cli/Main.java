package io.tablestream.cli;

import io.tablestream.client.TableAccount;
import io.tablestream.client.TableServiceHttp;
import io.tablestream.cli.transfer.CallFailure;
import io.tablestream.cli.transfer.Progress;
import io.tablestream.cli.transfer.TransferException;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tablestream}: moves entities in and out of a Table service (Tablestream, the Azure storage
 * emulator, or Azure itself) and looks at it: {@code export}, {@code import}, {@code count},
 * {@code tables}, {@code tail}; and runs Tablestream's jobs: {@code delete --filter}, {@code restore}.
 * The account comes from {@code --connection-string}, else {@code TABLESTREAM_CONNECTION_STRING},
 * else the emulator's account on this machine (what {@code run-server.sh} serves).
 */
@Command(name = "tablestream", mixinStandardHelpOptions = true, version = "tablestream 0.1",
        description = "Export, import, count, list and tail the tables of a Table service (Tablestream, the"
                + " Azure storage emulator or Azure); delete by filter and restore (Tablestream's jobs).",
        subcommands = {ExportCommand.class, ImportCommand.class, CountCommand.class, TablesCommand.class,
                TailCommand.class, DeleteCommand.class, RestoreCommand.class},
        footer = {"", "The account: --connection-string, else TABLESTREAM_CONNECTION_STRING, else the storage"
                + " emulator's account at http://127.0.0.1:10002/devstoreaccount1."})
public final class Main implements Callable<Integer> {
    static final String CONNECTION_STRING_VARIABLE = "TABLESTREAM_CONNECTION_STRING";

    @Option(names = {"-c", "--connection-string"}, scope = CommandLine.ScopeType.INHERIT,
            description = "An Azure Storage connection string (AccountName, AccountKey or SharedAccessSignature,"
                    + " TableEndpoint, or UseDevelopmentStorage=true).")
    String connectionString;

    @Option(names = "--progress", scope = CommandLine.ScopeType.INHERIT, paramLabel = "bar|lines|none",
            description = "How progress is shown on standard error (default: a bar on a terminal, else a line"
                    + " every 5 s).")
    Progress.Style progress;

    /** How often a transfer saves its checkpoint (tests make it often, to interrupt a transfer early). */
    @Option(names = "--checkpoint-interval-ms", scope = CommandLine.ScopeType.INHERIT, hidden = true,
            defaultValue = "1000")
    long checkpointIntervalMs;

    @Override
    public Integer call() {
        new CommandLine(this).usage(err);
        return 2;
    }

    /** The account the options name. */
    TableAccount account() {
        String s = connectionString != null ? connectionString : System.getenv(CONNECTION_STRING_VARIABLE);
        return TableAccount.parse(s == null || s.isBlank() ? TableAccount.EMULATOR_CONNECTION_STRING : s);
    }

    TableServiceHttp http() {
        return new TableServiceHttp(account());
    }

    /** A failure in words: the command's own message, or what failed (a file, a host), never an exception's name. */
    String describe(Throwable e) {
        Throwable cause = CallFailure.unwrap(e);
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof TransferException || t instanceof IllegalArgumentException) {
                return t.getMessage();
            }
        }
        String endpoint;
        try {
            endpoint = account().endpoint();
        } catch (IllegalArgumentException unparsable) {
            endpoint = "(no endpoint)";
        }
        return CallFailure.describe(cause, endpoint);
    }

    Progress.Style progressStyle() {
        return progress != null ? progress : Progress.defaultStyle();
    }

    java.time.Duration checkpointInterval() {
        return java.time.Duration.ofMillis(checkpointIntervalMs);
    }

    /** Where results go (standard output). */
    PrintStream out() {
        return out;
    }

    /** Where messages and progress go (standard error). */
    PrintStream messages() {
        return err;
    }

    private PrintStream out = System.out;
    private PrintStream err = System.err;

    /**
     * The command's logging configuration: a resource of its own rather than {@code logback.xml}, so
     * that a program with the command's classes on its classpath (the benchmarks) keeps its own.
     */
    static final String LOGGING = "io/tablestream/cli/logback.xml";

    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", LOGGING); // before the first logger
        }
        System.exit(run(System.out, System.err, args));
    }

    /**
     * Runs a command line, results to {@code out}, messages and progress to {@code err}; returns the
     * exit status (0 done, 1 failed, 2 wrong usage).
     */
    public static int run(PrintStream out, PrintStream err, String... args) {
        Main main = new Main();
        main.out = out;
        main.err = err;
        CommandLine cli = new CommandLine(main).setCaseInsensitiveEnumValuesAllowed(true)
                .setOut(new java.io.PrintWriter(out, true)).setErr(new java.io.PrintWriter(err, true))
                .setExecutionExceptionHandler((e, commandLine, parseResult) -> {
                    commandLine.getErr().println("tablestream: " + main.describe(e));
                    return 1;
                });
        return cli.execute(args);
    }
}
