package io.tablestream.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tablestream.client.TableServiceHttp;
import io.tablestream.client.TableServiceHttp.Answer;
import io.tablestream.cli.transfer.TransferException;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "tables", mixinStandardHelpOptions = true, description = "Lists the account's tables, one a line.")
final class TablesCommand implements Callable<Integer> {
    private static final JsonFactory JSON = new JsonFactory();

    @ParentCommand
    Main main;

    @Option(names = "--prefix", paramLabel = "P", description = "Only tables whose name starts with P (case-insensitive).")
    String prefix;

    @Override
    public Integer call() throws Exception {
        try (TableServiceHttp http = main.http()) {
            String next = null;
            do {
                Answer page = http.queryTables(next).get(60, TimeUnit.SECONDS);
                if (!page.succeeded()) {
                    throw new TransferException("Query Tables failed: " + page.describe());
                }
                try (JsonParser p = JSON.createParser(page.body())) {
                    String field = null;
                    JsonToken t;
                    while ((t = p.nextToken()) != null) {
                        if (t == JsonToken.FIELD_NAME) {
                            field = p.currentName();
                        } else if (t == JsonToken.VALUE_STRING && "TableName".equals(field)) {
                            String name = p.getText();
                            if (prefix == null || name.regionMatches(true, 0, prefix, 0, prefix.length())) {
                                main.out().println(name);
                            }
                        }
                    }
                }
                next = page.header("x-ms-continuation-nexttablename");
            } while (next != null);
        }
        return 0;
    }
}
