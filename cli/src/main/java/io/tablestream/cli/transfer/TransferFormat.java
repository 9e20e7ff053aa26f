package io.tablestream.cli.transfer;

import java.nio.file.Path;
import java.util.Locale;

/** The file formats of export and import. */
public enum TransferFormat {
    /** One entity per line as its self-describing JSON (see {@link EntityLines}). */
    JSONL,
    /** Typed CSV (see {@link CsvEntities}). */
    CSV;

    /** The format a file's name says ({@code .csv}: CSV; anything else: JSON Lines). */
    public static TransferFormat of(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv") ? CSV : JSONL;
    }
}
