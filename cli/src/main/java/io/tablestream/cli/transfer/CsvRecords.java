package io.tablestream.cli.transfer;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF (LF read too); a field holding a comma,
 * a quote, CR or LF is quoted, its quotes doubled. A quoted empty field ({@code ""}) and an
 * unquoted one ({@code }) read the same: what tells an empty string from an absent property is the
 * type column (see {@link CsvEntities}).
 */
final class CsvRecords {
    private CsvRecords() {
    }

    /** Reads records one at a time. */
    static final class RecordReader {
        private final Reader in;
        private int peeked = -2;
        private long records;

        RecordReader(Reader in) {
            this.in = in;
        }

        /** Records read so far. */
        long records() {
            return records;
        }

        /** The next record's fields, or null at the end. */
        List<String> next() throws IOException {
            int c = read();
            if (c == -1) {
                return null;
            }
            List<String> fields = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            boolean quoted = false;
            while (true) {
                if (quoted) {
                    if (c == -1) {
                        throw new IOException("record " + (records + 1) + ": a quoted field is not closed");
                    }
                    if (c == '"') {
                        int d = read();
                        if (d == '"') {
                            field.append('"');
                        } else {
                            quoted = false;
                            c = d;
                            continue;
                        }
                    } else {
                        field.append((char) c);
                    }
                } else if (c == '"' && field.isEmpty()) {
                    quoted = true;
                } else if (c == ',') {
                    fields.add(field.toString());
                    field.setLength(0);
                } else if (c == '\r' || c == '\n' || c == -1) {
                    if (c == '\r') {
                        int d = read();
                        if (d != '\n') {
                            unread(d);
                        }
                    }
                    fields.add(field.toString());
                    records++;
                    return fields;
                } else {
                    field.append((char) c);
                }
                c = read();
            }
        }

        private int read() throws IOException {
            if (peeked != -2) {
                int c = peeked;
                peeked = -2;
                return c;
            }
            return in.read();
        }

        private void unread(int c) {
            peeked = c;
        }
    }

    /** Writes one record. */
    static void write(Writer out, List<String> fields) throws IOException {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            String f = fields.get(i);
            if (f.indexOf(',') >= 0 || f.indexOf('"') >= 0 || f.indexOf('\r') >= 0 || f.indexOf('\n') >= 0) {
                out.write('"');
                out.write(f.replace("\"", "\"\""));
                out.write('"');
            } else {
                out.write(f);
            }
        }
        out.write("\r\n");
    }
}
